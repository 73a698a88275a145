import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DevBuilder } from '../../../../src/node/dev/builder';
import { formatDiagnostic } from '../../../../src/node/diagnostics';
import type { DeploymentPointer } from '../../../../src/shared/types';
import { shardUrl, type RouteShard, type SiteCore } from '../../../../src/shared/site-data';
import { makeTree, projectRoot } from '../../../helpers/tree';
import { shardFile, shardFiles, type SearchEntry } from '../../../../src/shared/search-layout';

const TREE = {
  'README.md': '# Home\n\nWelcome. See the [guide](/guide/).\n',
  'guide/README.md': '# Guide\n\nThe guide.\n\n## Install\n\nRun it.\n',
  'guide/setup.md': '# Setup\n\nSet it up. Back to the [guide](/guide/#install).\n',
};

/** A dev builder of the tree at `root` (made by `makeTree`), writing into `root/dev-out`. */
function devBuilderAt(root: string, devScript?: string): Promise<DevBuilder> {
  return DevBuilder.create({
    contentDir: path.join(root, 'content'),
    outDir: path.join(root, 'dev-out'),
    cacheDir: path.join(root, '.cache'),
    srcDir: path.join(projectRoot, 'src'),
    ...(devScript ? { devScript } : {}),
  });
}

describe('the dev builder', () => {
  let root: string;
  let out: string;
  let builder: DevBuilder;

  const file = (name: string) => path.join(root, 'content', name);
  const pointer = () => JSON.parse(readFileSync(path.join(out, 'version.json'), 'utf8')) as DeploymentPointer;
  const readJson = (url: string): unknown =>
    JSON.parse(readFileSync(path.join(out, url.replace('/docs/', '')), 'utf8'));
  const manifest = () => readJson(pointer().manifest) as SiteCore;
  /** The page records, read as the app reads them: from the route shards the pointer names. */
  const pages = () => {
    const core = manifest();
    return core.shards
      .map((name) => readJson(shardUrl(core.site.base, name)) as RouteShard)
      .flatMap((shard) => shard.pages)
      .sort((a, b) => a.path.localeCompare(b.path));
  };
  const fragments = () =>
    readdirSync(path.join(out, 'assets/js'))
      .filter((f) => f.startsWith('page.'))
      .sort();
  const sidebarLinks = () => manifest().sidebar.flatMap((g) => g.items.map((i) => i.link));
  /** The document of `route` (`guide/`) as a tab gets it: asked for, then read. */
  const documentAt = async (route: string) => {
    await builder.prepare(`/docs/${route}`);
    return readFileSync(path.join(out, route, 'index.html'), 'utf8');
  };

  beforeEach(async () => {
    root = await makeTree(TREE);
    out = path.join(root, 'dev-out');
    builder = await devBuilderAt(root, '/__dev/live.js');
    const first = await builder.fullBuild();
    expect(first.diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(first.ok).toBe(true);
  }, 60_000);

  it('writes the full site with the dev client in every page, and the data files of a build', async () => {
    const html = await documentAt('guide/setup/');
    expect(html).toContain('<script src="/__dev/live.js"></script>');
    // As in `npm run build`: the manifest has no records, the route shards have them.
    expect(pointer().shards).toEqual(manifest().shards);
    expect(manifest().pages).toEqual([]);
    expect(pages().map((p) => p.path)).toEqual(['/', '/guide/', '/guide/setup/']);
    expect(pages().find((p) => p.path === '/guide/')?.neighbours).toEqual({
      prev: { text: 'Home', link: '/' },
      next: { text: 'Setup', link: '/guide/setup/' },
    });
  });

  it('rewrites only the edited page, and the manifest points to its new fragment', async () => {
    const before = fragments();
    const oldManifest = pointer().manifest;
    const setupBefore = await documentAt('guide/setup/');
    await documentAt('');
    await builder.prepare('/docs/guide/setup.md');
    // The sitemap, as every text of all pages that no app reads, is written when asked for.
    expect(existsSync(path.join(out, 'sitemap.xml'))).toBe(false);
    await builder.prepare('/docs/sitemap.xml');
    expect(readFileSync(path.join(out, 'sitemap.xml'), 'utf8')).toContain('/docs/guide/setup/');
    const untouched = ['guide/setup/index.html', 'guide/setup.md', 'index.html', '404.html', 'sitemap.xml'];
    const longAgo = new Date('2001-01-01T00:00:00Z');
    for (const name of untouched) await utimes(path.join(out, name), longAgo, longAgo);
    await writeFile(file('guide/README.md'), '# Guide\n\nThe edited guide.\n\n## Install\n\nRun it.\n');

    const result = await builder.contentChanged(['guide/README.md']);
    expect(result.ok).toBe(true);
    expect(result.reload).toBe(false);
    expect(result.written).toEqual(['/guide/']);
    expect(result.update?.pointer.manifest).toBe(pointer().manifest);

    const added = fragments().filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^page\.guide\.[0-9a-f]{8}\.html$/);
    // Old fragments and manifests stay, so open tabs never 404.
    expect(fragments()).toEqual(expect.arrayContaining(before));
    expect(existsSync(path.join(out, oldManifest.replace('/docs/', '')))).toBe(true);
    const guide = pages().find((p) => p.path === '/guide/');
    expect(guide?.fragment).toBe(`/docs/assets/js/${added[0]}`);
    expect(readFileSync(path.join(out, 'assets/js', added[0] ?? ''), 'utf8')).toContain('The edited guide.');
    expect(await documentAt('guide/')).toContain('The edited guide.');
    await builder.prepare('/docs/guide.md');
    expect(readFileSync(path.join(out, 'guide.md'), 'utf8')).toContain('The edited guide.');
    // Made of every page's markdown, it is written when asked for.
    await builder.prepare('/docs/llms-full.txt');
    expect(readFileSync(path.join(out, 'llms-full.txt'), 'utf8')).toContain('The edited guide.');
    // Other pages' files, and the files the edit does not change, are not written again.
    expect(await documentAt('guide/setup/')).toBe(setupBefore);
    for (const name of untouched) expect([name, statSync(path.join(out, name)).mtime]).toEqual([name, longAgo]);
  });

  it('rewrites every page with a new stylesheet, and has the tabs reload, when an edit brings a new code colour', async () => {
    const stylesheet = () => readdirSync(path.join(out, 'assets/css')).sort();
    const before = stylesheet();
    await writeFile(file('guide/setup.md'), '# Setup\n\n```js\nconst answer = 42;\n```\n');
    const result = await builder.contentChanged(['guide/setup.md']);
    expect(result.ok).toBe(true);
    expect(result.reload).toBe(true);
    expect(result.written).toEqual(['/', '/guide/', '/guide/setup/']);
    const added = stylesheet().filter((name) => !before.includes(name));
    expect(added).toHaveLength(1);
    for (const route of ['', 'guide/']) {
      expect(await documentAt(route)).toContain(`/docs/assets/css/${added[0]}`);
    }
  });

  it("has the tabs reload with a stylesheet that defines a new formula's classes, and KaTeX's linked by its page", async () => {
    const stylesheet = () => readdirSync(path.join(out, 'assets/css')).sort();
    const before = stylesheet();
    await writeFile(file('guide/setup.md'), '# Setup\n\nA run costs $\\frac{t}{30}$ credits.\n');
    const result = await builder.contentChanged(['guide/setup.md']);
    expect(result.ok).toBe(true);
    expect(result.reload).toBe(true);
    const added = stylesheet().filter((name) => !before.includes(name));
    const site = added.find((name) => name.startsWith('app.'));
    const page = await documentAt('guide/setup/');
    const classes = [...page.matchAll(/ks-[a-z-]+_[^" ]+/g)].map((m) => m[0]);
    expect(classes.length).toBeGreaterThan(0);
    const css = readFileSync(path.join(out, 'assets/css', site!), 'utf8');
    for (const name of classes) expect(css).toContain(`.${name.replace(/[.%#]/g, (c) => `\\${c}`)}{`);
    expect(page).toMatch(/<link rel="stylesheet" href="\/docs\/assets\/css\/katex\.[0-9a-f]{8}\.css">/);
    expect(await documentAt('guide/')).not.toContain('katex.');
  });

  it('catches the search data up after an edit', async () => {
    await writeFile(file('guide/setup.md'), '# Setup\n\nZanzibar configuration. Back to the [guide](/guide/).\n');
    const before = JSON.parse(
      readFileSync(path.join(out, manifest().search.replace('/docs/', '')), 'utf8'),
    ) as SearchEntry;
    const edited = await builder.contentChanged(['guide/setup.md']);
    expect(edited.ok).toBe(true);
    const search = await builder.updateSearch();
    expect(search?.update?.pointer.manifest).toBe(pointer().manifest);
    const searchFile = path.join(out, manifest().search.replace('/docs/', ''));
    const entry = JSON.parse(readFileSync(searchFile, 'utf8')) as SearchEntry;
    const shard = (n: number) => readFileSync(path.join(path.dirname(searchFile), shardFile(entry, 'details', n)));
    expect(entry.details.map((_, n) => shard(n)).join('')).toContain('Zanzibar configuration.');
    // The shards the edit changed have new names and the old ones are gone (a tab that asks for an old shard
    // switches to the new data); the shards it did not change keep theirs.
    const shards = (entry: SearchEntry) => shardFiles(entry).map((file) => path.join(path.dirname(searchFile), file));
    expect(shards(entry).every((file) => existsSync(file))).toBe(true);
    const renamed = shards(before).filter((file) => !shards(entry).includes(file));
    expect(renamed.length).toBeGreaterThan(0);
    expect(renamed.filter((file) => existsSync(file))).toEqual([]);
    expect(await builder.updateSearch()).toBeUndefined();
  });

  it('adds, renames and deletes pages: the pages and the sidebar follow', async () => {
    await writeFile(file('guide/extra.md'), '# Extra\n\nMore.\n');
    const added = await builder.contentChanged(['guide/extra.md']);
    expect(added.ok).toBe(true);
    expect(added.written).toEqual(['/guide/extra/']);
    expect(sidebarLinks()).toContain('/guide/extra/');
    expect(await documentAt('guide/extra/')).toContain('More.');

    await rename(file('guide/extra.md'), file('guide/more.md'));
    const renamed = await builder.contentChanged(['guide/extra.md', 'guide/more.md']);
    expect(renamed.ok).toBe(true);
    expect(sidebarLinks()).toContain('/guide/more/');
    expect(sidebarLinks()).not.toContain('/guide/extra/');
    expect(existsSync(path.join(out, 'guide/extra/index.html'))).toBe(false);
    expect(existsSync(path.join(out, 'guide/extra.md'))).toBe(false);
    expect(await documentAt('guide/more/')).toContain('More.');
    await builder.prepare('/docs/guide/more.md');
    expect(existsSync(path.join(out, 'guide/more.md'))).toBe(true);

    await rm(file('guide/more.md'));
    const deleted = await builder.contentChanged(['guide/more.md']);
    expect(deleted.ok).toBe(true);
    expect(pages().map((p) => p.path)).toEqual(['/', '/guide/', '/guide/setup/']);
    expect(sidebarLinks()).not.toContain('/guide/more/');
  });

  it('reports a content error with file and line, and writes the site so the page shows it', async () => {
    await writeFile(file('guide/setup.md'), '# Setup\n\nSet it up.\n\nSee [nowhere](/nowhere/).\n');
    const broken = await builder.contentChanged(['guide/setup.md']);
    expect(broken.ok).toBe(false);
    expect(broken.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(/^guide\/setup\.md:5:5 broken link "\/nowhere\/": no page at \/nowhere\//),
    ]);
    // The writer previews the page as saved: `npm run build` would refuse the site, `npm run dev` shows it.
    expect(broken.update?.pointer.manifest).toBe(pointer().manifest);
    expect(broken.written).toEqual(['/guide/setup/']);
    expect(await documentAt('guide/setup/')).toContain('<p>See <a href="/docs/nowhere/">nowhere</a>.</p>');

    // Deleting a page that others link to is an error in the linking page; the site goes on without it.
    await rm(file('guide/README.md'));
    const dangling = await builder.contentChanged(['guide/README.md']);
    expect(dangling.diagnostics.map(formatDiagnostic)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^README\.md:\d+:\d+ broken link "\/guide\/"/)]),
    );
    expect(pages().map((p) => p.path)).toEqual(['/', '/guide/setup/']);

    await writeFile(file('guide/README.md'), TREE['guide/README.md']);
    await writeFile(file('guide/setup.md'), '# Setup\n\nSet it up, fixed.\n');
    const fixed = await builder.contentChanged(['guide/README.md', 'guide/setup.md']);
    expect(fixed.diagnostics).toEqual([]);
    expect(fixed.ok).toBe(true);
    expect(fixed.update?.pointer.manifest).toBe(pointer().manifest);
    expect(await documentAt('guide/setup/')).toContain('Set it up, fixed.');
  });

  it('makes a page again when an image it misses appears, and leaves a page with warnings alone otherwise', async () => {
    await writeFile(file('guide/setup.md'), '# Setup\n\n<img src="./shot.png" alt="The form">\n');
    const missing = await builder.contentChanged(['guide/setup.md']);
    expect(missing.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(/^guide\/setup\.md:3:\d+ .*shot\.png/),
    ]);
    // Another page's save: the page with the warning is not made again, and keeps its warning.
    await writeFile(file('guide/README.md'), '# Guide\n\nThe guide, edited.\n\n## Install\n\nRun it.\n');
    const other = await builder.contentChanged(['guide/README.md']);
    expect(other.written).toEqual(['/guide/']);
    expect(other.diagnostics).toHaveLength(1);
    // The image appears: the page that missed it is made again, with it.
    await writeFile(
      file('guide/shot.png'),
      readFileSync(path.join(projectRoot, 'test/fixtures/markdown/files/icon.png')),
    );
    const found = await builder.contentChanged(['guide/shot.png']);
    expect(found.diagnostics).toEqual([]);
    expect(found.written).toEqual(['/guide/setup/']);
  });

  it('keeps the last good site while _site.yaml cannot be read', async () => {
    const good = pointer();
    const before = fragments();
    await writeFile(file('_site.yaml'), 'title: [unclosed\n');
    await writeFile(file('guide/setup.md'), '# Setup\n\nSet it up, again.\n');
    const broken = await builder.contentChanged(['_site.yaml', 'guide/setup.md']);
    expect(broken.ok).toBe(false);
    expect(broken.update).toBeUndefined();
    expect(broken.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(/^_site\.yaml:1:\d+ invalid YAML/),
    ]);
    expect(pointer()).toEqual(good);
    expect(fragments()).toEqual(before);

    await rm(file('_site.yaml'));
    const fixed = await builder.contentChanged(['_site.yaml']);
    expect(fixed.ok).toBe(true);
    expect(await documentAt('guide/setup/')).toContain('Set it up, again.');
  });
});

describe('the dev builder with an API reference', () => {
  const spec = (summary: string) =>
    [
      'openapi: 3.1.0',
      'info: { title: Accounts API, version: "1" }',
      'paths:',
      '  /users/me:',
      '    get:',
      '      operationId: getCurrentUser',
      '      tags: [Users]',
      `      summary: ${summary}`,
      '      responses:',
      '        "200": { description: The user. }',
      '',
    ].join('\n');

  it('has the reference pages, and makes them again when the OpenAPI document is saved', async () => {
    const root = await makeTree({
      '_site.yaml': 'title: T\napiReference:\n  - { spec: api/openapi.yaml, route: /api/reference/ }\n',
      'README.md': '# Home\n\nSee [who you are](/api/reference/users/#getCurrentUser).\n',
      'api/openapi.yaml': spec('Get the current user'),
    });
    const out = path.join(root, 'dev-out');
    const builder = await devBuilderAt(root);
    const first = await builder.fullBuild();
    expect(first.diagnostics.map(formatDiagnostic)).toEqual([]);
    const page = async () => {
      await builder.prepare('/docs/api/reference/users/');
      return readFileSync(path.join(out, 'api/reference/users/index.html'), 'utf8');
    };
    expect(await page()).toContain('Get the current user<a class="header-anchor" href="#getCurrentUser"');
    await writeFile(path.join(root, 'content/api/openapi.yaml'), spec('Who am I'));
    const edited = await builder.contentChanged(['api/openapi.yaml']);
    expect(edited.diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(edited.written).toContain('/api/reference/users/');
    expect(await page()).toContain('Who am I<a class="header-anchor" href="#getCurrentUser"');
    // A broken link in a description is shown in the document, where the writer fixes it.
    await writeFile(path.join(root, 'content/api/openapi.yaml'), spec('Who am I, see [home](/hom/)'));
    const broken = await builder.contentChanged(['api/openapi.yaml']);
    // The summary is in the overview's list too: the link is reported once for each page that shows it.
    expect(broken.diagnostics.map(formatDiagnostic)).toEqual(
      ['README', 'users'].map(
        (page) =>
          `api/openapi.yaml:8:37 broken link "/hom/": no page at /hom/ (in the reference page made from it, api/reference/${page}.md)`,
      ),
    );
    builder.close();
  }, 60_000);
});

describe('the dev builder on a site that shows when each page was last updated', () => {
  it('gives each page the date of its last commit, as the build does', async () => {
    const root = await makeTree({ ...TREE, '_site.yaml': 'title: Docs\nlastUpdated: true\n' });
    const date = '2025-03-04T05:06:07Z';
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Writer', '-c', 'user.email=w@example.com', ...args], {
        cwd: root,
        env: { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date },
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'Docs');
    const out = path.join(root, 'dev-out');
    const builder = await devBuilderAt(root);
    expect((await builder.fullBuild()).ok).toBe(true);
    const pointer = JSON.parse(readFileSync(path.join(out, 'version.json'), 'utf8')) as DeploymentPointer;
    const core = JSON.parse(readFileSync(path.join(out, pointer.manifest.replace('/docs/', '')), 'utf8')) as SiteCore;
    const records = core.shards
      .map((name) => JSON.parse(readFileSync(path.join(out, shardUrl('', name)), 'utf8')) as RouteShard)
      .flatMap((shard) => shard.pages);
    expect(records.find((page) => page.path === '/guide/setup/')?.lastUpdated).toBe('2025-03-04T05:06:07+00:00');
    builder.close();
  }, 60_000);
});

describe('the dev builder before its first page pass has made the site', () => {
  it('makes the page asked for, and a saved one, at once, then gives way to the whole site', async () => {
    const root = await makeTree(TREE);
    const out = path.join(root, 'dev-out');
    const builder = await devBuilderAt(root);
    const routes = () => {
      const pointer = JSON.parse(readFileSync(path.join(out, 'version.json'), 'utf8')) as DeploymentPointer;
      const read = (url: string): unknown =>
        JSON.parse(readFileSync(path.join(out, url.replace('/docs/', '')), 'utf8'));
      const core = read(pointer.manifest) as SiteCore;
      return core.shards
        .map((name) => read(shardUrl(core.site.base, name)) as RouteShard)
        .flatMap((shard) => shard.pages.map((page) => page.path))
        .sort();
    };
    await builder.readFirst();
    const asked = await builder.prepare('/docs/guide/setup/');
    // Made on its own: its link into the guide, not made yet, is not a problem.
    expect(asked?.diagnostics).toEqual([]);
    expect(asked?.written).toEqual(['/guide/setup/']);
    expect(routes()).toEqual(['/guide/setup/']);
    expect(readFileSync(path.join(out, 'guide/setup/index.html'), 'utf8')).toContain('Set it up.');
    // Asked for again, it is not made again.
    expect(await builder.prepare('/docs/guide/setup')).toBeUndefined();

    await writeFile(path.join(root, 'content/guide/setup.md'), '# Setup\n\nSet it up, saved.\n');
    const saved = await builder.preview(['guide/setup.md']);
    expect(saved?.written).toEqual(['/guide/setup/']);
    await builder.prepare('/docs/guide/setup/');
    expect(readFileSync(path.join(out, 'guide/setup/index.html'), 'utf8')).toContain('Set it up, saved.');

    const whole = await builder.fullBuild();
    expect(whole.ok).toBe(true);
    expect(routes()).toEqual(['/', '/guide/', '/guide/setup/']);
    expect(await builder.preview(['guide/setup.md'])).toBeUndefined();
  }, 60_000);

  it('makes a page saved while the whole site is written at once, not after it', async () => {
    // Enough pages for the whole site's fragments to take several steps of the output's queue.
    const many = Object.fromEntries(
      Array.from({ length: 1200 }, (_, n) => [`p${n}.md`, `# Page ${n}\n\nThe text of page ${n}.\n`]),
    );
    const root = await makeTree({ ...TREE, ...many });
    const builder = await devBuilderAt(root);
    await builder.readFirst();
    await builder.prepare('/docs/guide/setup/');
    const fragments = path.join(root, 'dev-out/assets/js');
    const before = new Set(readdirSync(fragments));
    let wholeWritten = false;
    const whole = builder.fullBuild().then((result) => ((wholeWritten = true), result));
    // Saved as soon as the whole site's first fragment is on disk: the pages are all made by then.
    const saved = await new Promise<Awaited<ReturnType<DevBuilder['preview']>>>((resolve, reject) => {
      const watcher = watch(fragments, (_event, name) => {
        if (!name?.startsWith('page.') || before.has(name)) return;
        watcher.close();
        writeFile(path.join(root, 'content/guide/setup.md'), '# Setup\n\nSaved as the site is written.\n')
          .then(() => builder.preview(['guide/setup.md']))
          .then(resolve, reject);
      });
    });
    expect(saved?.written).toEqual(['/guide/setup/']);
    expect(wholeWritten).toBe(false);
    await builder.prepare('/docs/guide/setup/');
    expect(readFileSync(path.join(root, 'dev-out/guide/setup/index.html'), 'utf8')).toContain('Saved as the site');
    expect((await whole).ok).toBe(true);
  }, 120_000);
});
