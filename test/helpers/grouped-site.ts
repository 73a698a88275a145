import type { UnhashedManifest } from '../../src/node/output/browser-data';
import type { PageMeta } from '../../src/shared/types';

export interface GroupedSite {
  /** The hash in the fragments' names. */
  hash: string;
  groups: number;
  perGroup: number;
  /** The start of every page's title and sidebar text. */
  title?: string;
  /** The frontmatter of page `i` of each group. */
  frontmatter?: (i: number) => PageMeta['frontmatter'];
}

/**
 * A manifest (before its hash: `splitForBrowser` names it) of `groups` sidebar groups of `perGroup` pages each (page `i` of group `g` at /g{g}/page-{i}/),
 * as the build makes it under /docs/: past 300 entries the build folds its sidebar.
 */
export function groupedSite({
  hash,
  groups,
  perGroup,
  title = 'Page',
  frontmatter = () => ({}),
}: GroupedSite): UnhashedManifest {
  const pages: PageMeta[] = [];
  const sidebar = Array.from({ length: groups }, (_, g) => ({
    text: `Group ${g}`,
    items: Array.from({ length: perGroup }, (_, i) => {
      const route = `/g${g}/page-${i}/`;
      pages.push({
        title: `${title} ${g}.${i}`,
        frontmatter: frontmatter(i),
        regularPath: route,
        relativePath: `g${g}/page-${i}.md`,
        key: `g${g}.page-${i}`,
        path: route,
        headers: [],
        description: '',
        fragment: `/docs/assets/js/page.g${g}.page-${i}.${hash}.html`,
      });
      return { text: `${title} ${g}.${i}`, link: route };
    }),
  }));
  return {
    site: { title: 'T', description: '', base: '/docs/', siteUrl: 'https://x.test', lang: 'en', versions: [] },
    sidebar,
    redirects: {},
    search: `/docs/assets/js/search.${hash}.json`,
    searchWorker: '/docs/assets/js/search-worker.js',
    pages,
  };
}
