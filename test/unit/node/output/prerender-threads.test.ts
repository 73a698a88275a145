import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { appBundles, type Prerender } from '../../../../src/node/output/app-bundles';
import { splitForBrowser } from '../../../../src/node/output/browser-data';
import { PrerenderThreads, prerenderThreadCount } from '../../../../src/node/output/prerender-threads';
import { heldText } from '../../../../src/node/analyze/text-store';
import { renderingHere, type DocumentParts, type DocumentShell } from '../../../../src/node/output/render-document';
import { groupedSite } from '../../../helpers/grouped-site';
import { buildOutput } from '../../../helpers/output';
import { buildTree, makeTree, messages, projectRoot } from '../../../helpers/tree';

/** Four groups of 80 pages: past 300 entries, so the build folds the sidebar. */
const site = () => groupedSite({ hash: '2222bbbb', groups: 4, perGroup: 80 });

describe('the prerender threads', () => {
  let prerender: Prerender;
  beforeAll(async () => {
    ({ prerender } = await appBundles(path.join(projectRoot, 'src')));
  }, 120_000);

  /** A document's shell, as the build gives it for `route`. */
  const shell = (route: string): DocumentShell => ({
    head: { title: `Title of ${route}`, description: 'About it.', lang: 'en', canonical: undefined },
    assets: {
      base: '/docs/',
      css: 'app.css',
      entry: 'entry.js',
      theme: 'theme.js',
      preload: [],
      pointer: '/docs/version.json',
      route,
    },
    settings: {},
  });
  /** A document's text, its parts joined. */
  const text = (document: DocumentParts) => document.map((part) => part.read()).join('');

  it('render every document as the build’s own thread does, from the data they were started with', async () => {
    const { data } = splitForBrowser(site());
    const routes = ['/g0/page-0/', '/g1/page-40/', '/g2/page-7/', '/g3/page-79/', '/404.html'];
    const fragment = (route: string) =>
      route === '/404.html' ? undefined : heldText(`<p>Body of ${route} – “quoted”</p>`);
    const here = renderingHere(prerender.renderRoute, data);
    const threads = new PrerenderThreads();
    const renderer = threads.forSite(prerender, data, 2);
    try {
      expect(await renderer.ready(routes.length)).toBeGreaterThan(0);
      const onThreads = await Promise.all(
        routes.map(async (route) => text(await renderer.render(route, fragment(route), shell(route)))),
      );
      const onThisThread = await Promise.all(
        routes.map(async (route) => text(await here(route, fragment(route), shell(route)))),
      );
      expect(onThreads).toEqual(onThisThread);
      expect(onThreads[2]).toContain('<p>Body of /g2/page-7/ – “quoted”</p>');
      expect(onThreads[2]).toContain('<title>Title of /g2/page-7/</title>');
    } finally {
      await threads.stop();
    }
  });

  it('fail a route with the renderer’s error, which names it, and go on rendering the others', async () => {
    const { data } = splitForBrowser(site());
    const lacking = { ...data, groups: [] };
    const threads = new PrerenderThreads();
    const renderer = threads.forSite(prerender, lacking, 1);
    try {
      await renderer.ready(2);
      await expect(renderer.render('/g2/page-7/', heldText('<p>Body.</p>'), shell('/g2/page-7/'))).rejects.toThrow(
        'prerendering /g2/page-7/: the site data has no file of sidebar group 2',
      );
      expect(text(await renderer.render('/404.html', undefined, shell('/404.html')))).toContain('Page not found');
    } finally {
      await threads.stop();
    }
  });

  it('fail every route sent to a thread that stops before answering, and every route after', async () => {
    const { data } = splitForBrowser(site());
    // A bundle that is not there: each thread stops as it starts.
    const threads = new PrerenderThreads();
    const renderer = threads.forSite({ ...prerender, file: path.join(projectRoot, 'no-such-bundle.cjs') }, data, 1);
    try {
      await renderer.ready(2);
      await expect(renderer.render('/g0/page-0/', heldText(''), shell('/g0/page-0/'))).rejects.toThrow(
        /a prerender thread failed: .*no-such-bundle/s,
      );
      await expect(renderer.render('/g0/page-1/', heldText(''), shell('/g0/page-1/'))).rejects.toThrow(
        /a prerender thread failed/,
      );
    } finally {
      await threads.stop();
    }
  });

  it('make a build write the same site as one that prerenders on its own thread', async () => {
    const pages = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`p${i}.md`, `# Page ${i}\n\nText of page ${i}.\n`]),
    );
    const files = { 'README.md': '# Home\n\nSee [page 3](./p3.md).\n', ...pages };
    const [here, onThreads] = [await makeTree(files), await makeTree(files)];
    expect(messages(await buildTree(here, { prerenderThreads: 0 }))).toEqual([]);
    expect(messages(await buildTree(onThreads, { prerenderThreads: 2 }))).toEqual([]);
    const written = await buildOutput(onThreads);
    expect(written).toEqual(await buildOutput(here));
    expect(written.get('dist/p3/index.html')).toContain('Text of page 3.');
  });

  it('are started only for enough documents to render to pay for them', () => {
    expect(prerenderThreadCount(120)).toBe(0);
    expect(prerenderThreadCount(10_000)).toBeGreaterThanOrEqual(1);
  });

  it('start for a site only when it has enough documents to render, and then serve the next site too', async () => {
    const first = splitForBrowser(site()).data;
    const second = splitForBrowser(groupedSite({ hash: '3333cccc', groups: 2, perGroup: 80, title: 'Older' })).data;
    const route = '/g1/page-3/';
    const fragment = heldText('<p>Body of the page.</p>');
    const build = new PrerenderThreads();
    try {
      // A build after a one-page edit renders a document or two: on its own thread, nothing sent ahead.
      const few = build.forSite(prerender, first);
      expect(await few.ready(2)).toBe(0);
      const expected = text(await renderingHere(prerender.renderRoute, first)(route, fragment, shell(route)));
      expect(text(await few.render(route, fragment, shell(route)))).toEqual(expected);
      // A cold build of a large site renders on threads, documents sent ahead to them.
      const many = build.forSite(prerender, first);
      expect(await many.ready(5_000)).toBeGreaterThan(0);
      expect(text(await many.render(route, fragment, shell(route)))).toEqual(expected);
      // The next site of the build (a version) renders on the threads that run, however few its documents.
      const next = build.forSite(prerender, second);
      expect(await next.ready(1)).toBeGreaterThan(0);
      expect(text(await next.render(route, fragment, shell(route)))).toEqual(
        text(await renderingHere(prerender.renderRoute, second)(route, fragment, shell(route))),
      );
    } finally {
      await build.stop();
    }
  });
});
