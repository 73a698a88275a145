import { cp, mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../../../src/shared/types';
import { importSite } from '../../../../src/node/import/import-site';
import { HtmlFile } from '../../../helpers/html';
import { buildTree, messages, projectRoot } from '../../../helpers/tree';

const VITEPRESS = path.join(projectRoot, 'test/fixtures/vitepress');
const VUEPRESS = path.join(projectRoot, 'test/fixtures/vuepress1');

describe('npm run import of a VitePress site, then a strict build', () => {
  it('carries over the TypeScript config, its sidebar, header links, edit links and template text', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-import-'));
    const result = await importSite({ source: VITEPRESS, out: path.join(root, 'content') });
    expect(result).toMatchObject({ tool: 'VitePress', pages: 3, redirects: 0 });
    const built = await buildTree(root);
    expect(messages(built)).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
    expect(manifest.sidebar).toEqual([
      {
        text: 'Guide',
        items: [
          { text: 'Introduction', link: '/guide/' },
          { text: 'Limits', link: '/guide/limits/' },
        ],
      },
    ]);
    expect(manifest.site.nav).toEqual([
      { text: 'Guide', link: '/guide/' },
      { text: 'Limits', link: '/guide/limits/' },
    ]);
    const limits = new HtmlFile(path.join(root, 'dist/guide/limits/index.html'));
    const heading = limits.byId('function-payload-limit-6mb');
    expect(heading && HtmlFile.text(heading)).toBe('Function payload limit: 6MB#');
    expect(limits.all('code').map(HtmlFile.text)).toEqual(['6MB']);
    expect(limits.all('a', 'edit-link')[0]?.attribs['href']).toBe(
      'https://github.com/example/platform-docs/edit/main/docs/guide/limits.md',
    );
    const guide = new HtmlFile(path.join(root, 'dist/guide/index.html'));
    expect(guide.all('a').map((a) => a.attribs['href'])).toContain('/docs/guide/limits/#function-payload-limit-6mb');
    expect(guide.all('iframe')[0]?.attribs).toMatchObject({
      src: 'https://player.vimeo.com/video/76979871',
      loading: 'lazy',
      class: 'embed',
    });
    const home = new HtmlFile(path.join(root, 'dist/index.html'));
    expect(home.all('img')[0]?.attribs['src']).toMatch(/^\/docs\/assets\/img\/mark\.[0-9a-f]{8}\.png$/);
  }, 60_000);
});

describe('npm run import of a VitePress site with numbered code', () => {
  it("keeps each fence's line numbers and the site-wide default, and the build reads them without a warning", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-import-'));
    const source = path.join(root, 'docs');
    await cp(VITEPRESS, source, { recursive: true });
    const config = path.join(source, '.vitepress/config.mts');
    await writeFile(
      config,
      readFileSync(config, 'utf8').replace('lastUpdated: true,', 'markdown: { lineNumbers: true },'),
    );
    const fences = '```ts:line-numbers=2\nconst a = 1;\nconst b = 2;\n```\n\n```sh:no-line-numbers\nnpm ci\n```\n';
    await writeFile(path.join(source, 'guide/code.md'), `# Code\n\n${fences}`);
    await importSite({ source, out: path.join(root, 'content') });
    expect(readFileSync(path.join(root, 'content/_site.yaml'), 'utf8')).toMatch(/^lineNumbers: true$/m);
    expect(readFileSync(path.join(root, 'content/guide/code.md'), 'utf8')).toContain(fences);
    const built = await buildTree(root);
    expect(messages(built).filter((line) => line.includes('code'))).toEqual([]);
    const html = readFileSync(path.join(root, 'dist/guide/code/index.html'), 'utf8');
    expect([...html.matchAll(/<pre class="line-numbers" aria-hidden="true">([^<]*)<\/pre>/g)].map((m) => m[1])).toEqual(
      ['2\n3'],
    );
  }, 60_000);
});

describe('npm run import refuses what it cannot do', () => {
  it('names an unreadable source, a folder that is no old site and an output folder in use', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-import-'));
    await expect(importSite({ source: path.join(root, 'nope'), out: path.join(root, 'out') })).rejects.toThrow(
      `cannot read the source folder "${path.join(root, 'nope')}": ENOENT`,
    );
    await mkdir(path.join(root, 'plain'));
    await writeFile(path.join(root, 'plain/README.md'), '# Plain\n');
    await expect(importSite({ source: path.join(root, 'plain'), out: path.join(root, 'out') })).rejects.toThrow(
      `"${path.join(root, 'plain')}" has no .vuepress/config.js or .vitepress/config.{js,mjs,ts}: it is not a VuePress or VitePress docs folder`,
    );
    await mkdir(path.join(root, 'used'));
    await writeFile(path.join(root, 'used/keep.md'), '# Keep\n');
    await expect(importSite({ source: VITEPRESS, out: path.join(root, 'used') })).rejects.toThrow(
      `the output folder "${path.join(root, 'used')}" is not empty: choose an empty folder, or add --force to write into it`,
    );
    expect((await importSite({ source: VITEPRESS, out: path.join(root, 'used'), force: true })).pages).toBe(3);
    expect(readFileSync(path.join(root, 'used/keep.md'), 'utf8')).toBe('# Keep\n');
  });

  it('exits non-zero with the message on the command line', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'import.ts', '/nonexistent/old-docs', '--out', '/tmp/x'],
      {
        cwd: projectRoot,
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('import: cannot read the source folder "/nonexistent/old-docs": ENOENT');
  }, 30_000);
});

describe('--no-strict on an old tree as it is (no import)', () => {
  it.each([
    [
      'VuePress 1',
      VUEPRESS,
      [
        'code/nodejs/working-with-files.md:1:1 warning: page has no title: "Working with files", from its file name, is used',
        'cron/README.md:1:1 warning: page only redirects to "/workflows/#triggers": it becomes a redirect from /cron/ to /workflows/#triggers, not a page',
        'notebook.md:1:1 warning: page only redirects to "/workflows/": it becomes a redirect from /notebook/ to /workflows/, not a page',
        'pricing.md:1:1 warning: page has no title: "Pricing", from its file name, is used',
        'pricing.md:3:7 warning: "prev" must be false or a route path',
        'README.md:1:1 warning: page has no title: "Content", from its file name, is used',
        'README.md:7:1 warning: image not found: /images/logo.png',
        'workflows/README.md:12:1 warning: <iframe> of "https://maps.example.com/embed?q=datacenter" is not from an embed domain of _site.yaml ("embeds") and was replaced by a link to it',
        'workflows/README.md:16:1 warning: <plantable> is not allowed in pages and was removed',
        'workflows/README.md:18:1 warning: <runcounter> is not allowed in pages and was removed',
        'workflows/README.md:20:1 warning: <script> and <style> elements are not allowed in pages and were removed',
        'workflows/README.md:28:1 warning: <script> and <style> elements are not allowed in pages and were removed',
      ],
    ],
    [
      'VitePress',
      VITEPRESS,
      [
        // Template text is not evaluated without the import, so the heading's id is not the one linked to.
        'guide/index.md:3:77 warning: broken anchor "./limits.md#function-payload-limit-6mb": /guide/limits/ has no heading #function-payload-limit-6mb',
        'index.md:1:1 warning: page has no title: "Content", from its file name, is used',
        'index.md:9:10 warning: image not found: /mark.png',
      ],
    ],
  ])(
    'builds the %s fixture with located warnings only; links to VuePress heading ids resolve',
    async (_tool, fixture, expected) => {
      const root = await mkdtemp(path.join(tmpdir(), 'docs-nostrict-'));
      await cp(fixture, path.join(root, 'content'), { recursive: true });
      const result = await buildTree(root, { strict: false });
      expect(result.ok).toBe(true);
      expect(messages(result)).toEqual(expected);
    },
    60_000,
  );
});

describe('last updated', () => {
  it('shows the date of the last commit of each page when configured, from git, and nothing outside git', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-git-'));
    await mkdir(path.join(root, 'content'));
    await writeFile(path.join(root, 'content/_site.yaml'), 'title: Docs\nlastUpdated: true\n');
    await writeFile(path.join(root, 'content/README.md'), '# Home\n');
    const withoutGit = await buildTree(root);
    expect(withoutGit.ok).toBe(true);
    const plain = new HtmlFile(path.join(root, 'dist/index.html'));
    expect(plain.all('p', 'last-updated')).toEqual([]);
    // No editLink in _site.yaml: no "Edit this page" either.
    expect(plain.all('a', 'edit-link')).toEqual([]);
    const git = (...args: string[]) =>
      spawnSync('git', args, {
        cwd: root,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'Writer',
          GIT_AUTHOR_EMAIL: 'writer@example.com',
          GIT_COMMITTER_NAME: 'Writer',
          GIT_COMMITTER_EMAIL: 'writer@example.com',
          GIT_AUTHOR_DATE: '2026-03-14T12:00:00Z',
          GIT_COMMITTER_DATE: '2026-03-14T12:00:00Z',
        },
      });
    git('init', '-q');
    git('add', 'content');
    git('commit', '-qm', 'First');
    await writeFile(path.join(root, 'content/new.md'), '# New\n');
    expect((await buildTree(root)).ok).toBe(true);
    const home = new HtmlFile(path.join(root, 'dist/index.html'));
    const time = home.all('time')[0];
    expect(time && [HtmlFile.text(time), time.attribs['datetime']]).toEqual([
      'March 14, 2026',
      '2026-03-14T12:00:00+00:00',
    ]);
    // A file git does not know yet has no date.
    expect(new HtmlFile(path.join(root, 'dist/new/index.html')).all('time')).toEqual([]);
  }, 60_000);
});
