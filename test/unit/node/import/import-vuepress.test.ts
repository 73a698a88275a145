import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../../../src/shared/types';
import { importSite, type ImportResult } from '../../../../src/node/import/import-site';
import type { BuildResult } from '../../../../src/node/build';
import { createSiteServer } from '../../../../src/node/serve/server';
import { HtmlFile } from '../../../helpers/html';
import { buildTree, messages, projectRoot } from '../../../helpers/tree';

const FIXTURE = path.join(projectRoot, 'test/fixtures/vuepress1');

function treeHash(dir: string): string {
  const hash = createHash('sha1');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(path.relative(dir, full)).update(readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** The VuePress 1 fixture, imported and then built in strict mode, checked in the HTML a reader gets. */
describe('npm run import of a VuePress 1 site, then a strict build', () => {
  let root: string;
  let imported: ImportResult;
  let built: BuildResult;
  let before: string;
  const page = (route: string) => new HtmlFile(path.join(root, 'dist', route, 'index.html'));
  const manifest = () => JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
  const report = () => readFileSync(path.join(root, 'content/_import-report.md'), 'utf8');

  beforeAll(async () => {
    before = treeHash(FIXTURE);
    root = await mkdtemp(path.join(tmpdir(), 'docs-import-'));
    imported = await importSite({ source: FIXTURE, out: path.join(root, 'content') });
    built = await buildTree(root);
  }, 60_000);

  it('builds with no error, and leaves the source as it was', () => {
    expect(messages(built).filter((m) => !m.includes(' warning: '))).toEqual([]);
    expect(built.ok).toBe(true);
    expect(imported).toMatchObject({ tool: 'VuePress', pages: 5, redirects: 2 });
    expect(treeHash(FIXTURE)).toBe(before);
  });

  it("shows template text as the site's values, in prose and in inline code alike", () => {
    const limits = page('limits');
    const text = limits.articleText();
    expect(text).toContain('The site these pages belong to is Platform Docs.');
    expect(text).toContain('accepts a body of up to 512KB.');
    expect(text).toContain('Workflows get 256MB of memory by default');
    expect(text).toContain('on Node.js 14. An email trigger accepts up to 30MB.');
    const inline = limits
      .all('code')
      .filter((c) => HtmlFile.parent(c)?.name !== 'pre')
      .map(HtmlFile.text);
    expect(inline).toEqual(['413', '512KB', '256MB']);
    // Fenced code was never evaluated, and stays as written.
    expect(limits.all('pre').map(HtmlFile.text).join('')).toContain("'{{ $site.themeConfig.PAYLOAD_SIZE_LIMIT }}'");
    expect(text.replace(/'\{\{ \$site\.themeConfig\.PAYLOAD_SIZE_LIMIT \}\}'/, '')).not.toMatch(
      /\$site|themeConfig|\{\{/,
    );
  });

  it('resolves links written for VuePress heading ids, rewritten to ours, and keeps the old id on the heading', () => {
    const hrefs = page('workflows')
      .all('a')
      .map((a) => a.attribs['href']);
    expect(hrefs).toContain('/docs/limits/#event--execution-history');
    expect(hrefs).toContain('/docs/limits/#using-sendhttp');
    expect(hrefs).not.toContain('/docs/limits/#event-execution-history');
    const limits = page('limits');
    /** The id of the heading an anchor sits in. */
    const headingOf = (id: string) => {
      const anchor = limits.byId(id);
      return anchor && HtmlFile.parent(anchor)?.attribs['id'];
    };
    expect(headingOf('event-execution-history')).toBe('event--execution-history');
    expect(headingOf('using-send-http')).toBe('using-sendhttp');
    expect(messages(built).filter((m) => m.includes('anchor'))).toEqual([]);
  });

  it("keeps the writers' sidebar groups in order, and the header links", () => {
    expect(manifest().sidebar).toEqual([
      { text: 'Platform Docs', items: [{ text: 'Platform Docs', link: '/' }] },
      {
        text: 'Workflows',
        items: [
          { text: 'Workflows', link: '/workflows/' },
          { text: 'Limits', link: '/limits/' },
          { text: 'Working with files', link: '/code/nodejs/working-with-files/' },
        ],
      },
      { text: 'Reference', items: [{ text: 'Pricing', link: '/pricing/' }] },
    ]);
    const home = page('');
    const nav = home.all('nav', 'header-nav')[0];
    const links = home
      .all('a')
      .filter((a) => a.parent === nav)
      .map((a) => [HtmlFile.text(a), a.attribs['href']]);
    expect(links).toEqual([
      ['Limits', '/docs/limits/'],
      ['Status', 'https://status.example.com'],
    ]);
  });

  it('keeps the YouTube video as a lazy, responsive player and turns the other iframe into a link', () => {
    const workflows = page('workflows');
    const [video, ...others] = workflows.all('iframe');
    expect(others).toEqual([]);
    expect(video?.attribs).toMatchObject({
      src: 'https://www.youtube.com/embed/M7lc1UVf-VE',
      title: 'Build your first workflow',
      class: 'embed',
      loading: 'lazy',
    });
    const link = workflows.all('a', 'embed-link')[0];
    expect(link && [HtmlFile.text(link), link.attribs['href']]).toEqual([
      'Where workflows run',
      'https://maps.example.com/embed?q=datacenter',
    ]);
    expect(readFileSync(path.join(root, 'dist/_headers.nginx'), 'utf8')).toContain(
      'frame-src https://youtube.com https://*.youtube.com https://youtube-nocookie.com',
    );
  });

  it('inlines the static component, and drops the dynamic one, the script and the style, reporting each', () => {
    const workflows = page('workflows');
    const table = workflows.all('table', 'plan-table')[0];
    expect(table && workflows.all('th').concat(workflows.all('td')).map(HtmlFile.text)).toEqual([
      'Plan',
      'Team members',
      'Team',
      '5',
    ]);
    const text = workflows.articleText();
    expect(text).not.toContain('Runs today');
    expect(text).not.toContain('console.log');
    expect(text).not.toContain('.plan-table');
    const lines = report().split('\n');
    expect(lines).toContain(
      '- `workflows/README.md:18` component `<RunCounter>` cannot run on this site and was removed (its template in .vuepress/components/RunCounter.vue has bindings)',
    );
    expect(lines).toContain('- `workflows/README.md:20` a `<script>` block cannot run on this site and was removed');
    expect(lines).toContain('- `workflows/README.md:28` a `<style>` block cannot run on this site and was removed');
    expect(lines).toContain(
      '- `workflows/README.md:16` `<PlanTable>` became the HTML of its template (.vuepress/components/PlanTable.vue)',
    );
  });

  it('says that pages have no canonical link until the site has an address', () => {
    expect(report().split('\n')).toContain(
      '- `.vuepress/config.js` pages carry no canonical link until `siteUrl:` in `_site.yaml` gives the published address',
    );
    // Neither a page nor a redirect's page names an address.
    for (const route of ['limits', 'cron']) {
      const links = page(route).all('link');
      expect(links.filter((link) => link.attribs['rel'] === 'canonical')).toEqual([]);
    }
  });

  it('says which options of the config could not be read, and which plugins do not run', () => {
    const lines = report().split('\n');
    expect(lines).toContain(
      '- `.vuepress/config.js` option "plugins.0.0" could not be read: it needs the package "@vuepress/plugin-google-analytics", which is not installed here',
    );
    expect(lines).toContain(
      '- `.vuepress/config.js` option "plugins.2" could not be read: it needs the package "vuepress-plugin-code-copy", which is not installed here',
    );
    expect(lines).toContain(
      '- `.vuepress/config.js` plugin "vuepress-plugin-element-tabs" does not run on this site: what it added to pages is not carried over',
    );
  });

  it('turns redirect pages into redirects that keep their #hash, not pages', async () => {
    expect(readFileSync(path.join(root, 'dist/_redirects'), 'utf8').split('\n')).toEqual([
      '/docs/cron /docs/workflows/#triggers 301',
      '/docs/cron/ /docs/workflows/#triggers 301',
      '/docs/notebook /docs/workflows/ 301',
      '/docs/notebook/ /docs/workflows/ 301',
      '',
    ]);
    expect(readFileSync(path.join(root, 'dist/cron/index.html'), 'utf8')).toContain(
      '<meta http-equiv="refresh" content="0; url=/docs/workflows/#triggers">',
    );
    const { pages, sidebar } = manifest();
    const routes = [...pages.map((p) => p.path), ...sidebar.flatMap((g) => g.items.map((i) => i.link))];
    expect(routes.filter((r) => r === '/cron/' || r === '/notebook/')).toEqual([]);
    // nginx and npm start answer 301, the #section after the query string, where a URL keeps it.
    expect(readFileSync(path.join(root, 'dist/_redirects.nginx'), 'utf8')).toContain(
      'location = "/docs/cron/" { return 301 "/docs/workflows/$is_args$args#triggers"; }',
    );
    const server = createSiteServer({ distDir: path.join(root, 'dist') });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/cron/?from=old`, {
        redirect: 'manual',
      });
      expect([answer.status, answer.headers.get('location')]).toEqual([301, '/docs/workflows/?from=old#triggers']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('copies the public folder, so that /images/logo.png still shows', () => {
    const img = page('').all('img')[0];
    expect(img?.attribs['src']).toMatch(/^\/docs\/assets\/img\/logo\.[0-9a-f]{8}\.png$/);
    expect(existsSync(path.join(root, 'dist', (img?.attribs['src'] ?? '').replace('/docs/', '')))).toBe(true);
  });

  it('links every page to its source with "Edit this page", and gives a page without a title its name', () => {
    const limits = page('limits').all('a', 'edit-link')[0];
    expect(limits?.attribs['href']).toBe('https://github.com/example/platform-docs/edit/main/docs/limits.md');
    const files = page('code/nodejs/working-with-files');
    expect(files.all('a', 'edit-link')[0]?.attribs['href']).toBe(
      'https://github.com/example/platform-docs/edit/main/docs/code/nodejs/working-with-files.md',
    );
    expect(files.all('title').map(HtmlFile.text)[0]).toMatch(/^Working with files/);
    // A relative prev/next link of VuePress became the route this site's frontmatter takes.
    expect(manifest().pages.find((p) => p.path === '/pricing/')?.frontmatter.prev).toBe('/limits/');
    expect(page('pricing').all('a', 'prev')[0]?.attribs['href']).toBe('/docs/limits/');
    // lastUpdated is configured, but the imported tree is no git checkout: no date, and no failure.
    expect(page('limits').all('p', 'last-updated')).toEqual([]);
  });
});
