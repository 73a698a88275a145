import { withBase } from './paths';
import type { PageMeta, SiteSettings } from './types';

export interface HeadData {
  title: string;
  description: string;
  lang: string;
  /** Absolute canonical URL; none for the not-found page. */
  canonical?: string;
}

/** What the document head says for a page (or the not-found page); the prerender and the app share it. */
export function headFor(site: SiteSettings, page: PageMeta | undefined): HeadData {
  if (!page) {
    return { title: `Page not found | ${site.title}`, description: site.description, lang: site.lang };
  }
  return {
    title: page.path === '/' ? `${page.title} | ${site.title}` : `${page.title} | ${site.title}`,
    description: page.description || site.description,
    lang: typeof page.frontmatter.lang === 'string' ? page.frontmatter.lang : site.lang,
    canonical: site.siteUrl.replace(/\/$/, '') + withBase(site.base, page.path),
  };
}
