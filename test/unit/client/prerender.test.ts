import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { appBundles } from '../../../src/node/output/app-bundles';
import type { RenderRoute } from '../../../src/node/output/render-document';
import { splitForBrowser } from '../../../src/node/output/browser-data';
import { shardOf, type SiteData } from '../../../src/shared/site-data';
import { groupedSite } from '../../helpers/grouped-site';
import { projectRoot } from '../../helpers/tree';

/** Four groups of 80 pages: past 300 entries, so the build folds the sidebar. */
const foldedSite = () => groupedSite({ hash: '1111aaaa', groups: 4, perGroup: 80 });

/** The previous/next links of a page's HTML. */
const prevNext = (html: string) => /<nav class="prev-next"[^]*?<\/nav>/.exec(html)?.[0] ?? '';

describe('the prerender', () => {
  let renderRoute: RenderRoute;
  beforeAll(async () => {
    ({ renderRoute } = (await appBundles(path.join(projectRoot, 'src'))).prerender);
  }, 120_000);

  it('renders a page from the data files: its own group open from the group file, the others folded', async () => {
    const { data } = splitForBrowser(foldedSite());
    const html = await renderRoute(data, '/g2/page-7/', '<p>Body of page 2.7.</p>');
    expect(html).toContain('<p>Body of page 2.7.</p>');
    expect(html).toContain('href="/docs/g2/page-79/"');
    expect(html).toMatch(/<a href="\/docs\/g2\/page-7\/" aria-current="page">/);
    expect(html).not.toContain('href="/docs/g1/page-0/"');
    const folds = [...html.matchAll(/class="sidebar-fold" aria-expanded="(\w+)"/g)].map((m) => m[1]);
    expect(folds).toEqual(['false', 'false', 'true', 'false']);
    expect(prevNext(html)).toContain('href="/docs/g2/page-6/"');
    expect(prevNext(html)).toContain('href="/docs/g2/page-8/"');
  });

  it('shows what the files say, as the app that takes the page over reads them', async () => {
    const { data } = splitForBrowser(foldedSite());
    // The sidebar group's file and the page's record are what the document shows, not the whole manifest.
    const shown: SiteData = {
      ...data,
      groups: data.groups.map((file, g) =>
        g === 2 ? { ...file, items: file.items.map((item) => ({ ...item, text: `Listed ${item.text}` })) } : file,
      ),
      shards: data.shards.map((shard, n) =>
        n === shardOf('/g2/page-7/', data.core.shards.length)
          ? {
              ...shard,
              pages: shard.pages.map((page) =>
                page.path === '/g2/page-7/'
                  ? { ...page, neighbours: { next: { text: 'Chosen next', link: '/g0/page-0/' } } }
                  : page,
              ),
            }
          : shard,
      ),
    };
    const html = await renderRoute(shown, '/g2/page-7/', '<p>Body.</p>');
    expect(html).toContain('Listed Page 2.40');
    expect(prevNext(html)).toContain('Chosen next');
    expect(prevNext(html)).toContain('href="/docs/g0/page-0/"');
    expect(prevNext(html)).not.toContain('href="/docs/g2/page-6/"');
  });

  it('renders the not-found page with the site core alone', async () => {
    const { data } = splitForBrowser(foldedSite());
    const html = await renderRoute(data, '/404.html', undefined);
    expect(html).toContain('Page not found');
    expect(html).not.toContain('aria-current="page"');
  });

  it('fails naming the file the data lacks, rather than render an error where the browser shows the page', async () => {
    const { data } = splitForBrowser(foldedSite());
    await expect(renderRoute({ ...data, groups: [] }, '/g2/page-7/', '<p>Body.</p>')).rejects.toThrow(
      'prerendering /g2/page-7/: the site data has no file of sidebar group 2',
    );
  });
});
