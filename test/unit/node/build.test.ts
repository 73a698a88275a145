import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pagePassShare } from '../../../src/node/analyze/analyze-threads';
import type { BuildOptions } from '../../../src/node/build';
import { indexManifest } from '../../../src/shared/resolve';
import { neighboursOf } from '../../../src/shared/navigation';
import type { Manifest } from '../../../src/shared/types';
import { buildTree, makeTree, messages } from '../../helpers/tree';

const SITE = `title: Test Docs
description: A small site.
siteUrl: https://docs.example.com
sidebar:
  - text: Guide
    items: [/, /guide/, /guide/setup/]
redirects:
  /old: /guide/
constants:
  LIMIT: 512KB
`;

const GOOD = {
  '_site.yaml': SITE,
  'README.md': '# Home\n\nWelcome. See the [guide](guide/README.md) and [setup](/guide/setup/#install).\n',
  'guide/README.md': '---\ntitle: Guide\ndescription: The guide.\n---\n\n# Guide\n\nThe limit is {{ LIMIT }}.\n',
  'guide/setup.md': '# Setup\n\n## Install\n\nRun it.\n\n![diagram](./diagram.png)\n',
  'guide/diagram.png': new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
  '_drafts/hidden.md': '# Not a page\n',
};

/** Every file of a folder with its content hash, to compare outputs exactly. */
/** Twelve pages with code in four languages, a highlighted line, and a block inside a container. */
function codePages(count = 12): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `code/page-${i}.md`,
      `# Code ${i}\n\n[[toc]]\n\n## Steps\n\n\`\`\`${['js', 'python', 'bash', 'json'][i % 4]} {1}\nconst step = ${i}; // "${i}"\nrun <x> && echo $HOME\n\`\`\`\n\n::: tip\n\`\`\`yaml\nkey: ${i}\n\`\`\`\n:::\n`,
    ]),
  );
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(dir, full)] = createHash('sha1').update(readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

describe('build', () => {
  it('turns a content tree into manifest/ and a deployable dist/', async () => {
    const root = await makeTree(GOOD);
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.pages).toBe(3);

    const manifest = JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
    const setup = manifest.pages.find((p) => p.path === '/guide/setup/');
    expect(setup).toMatchObject({
      title: 'Setup',
      regularPath: '/guide/setup/',
      relativePath: 'guide/setup.md',
      key: 'guide.setup',
      headers: [{ level: 2, title: 'Install', slug: 'install' }],
      description: 'Run it.',
    });
    expect(setup?.fragment).toMatch(/^\/docs\/assets\/js\/page\.guide\.setup\.[0-9a-f]{8}\.html$/);
    expect(manifest.redirects).toEqual({ '/old/': '/guide/' });
    expect(manifest.sidebar[0]?.items.map((i) => i.text)).toEqual(['Home', 'Guide', 'Setup']);

    const dist = path.join(root, 'dist');
    for (const file of [
      'index.html',
      'guide/index.html',
      'guide/setup/index.html',
      '404.html',
      'old/index.html',
      '_redirects',
      'sitemap.xml',
      'version.json',
    ]) {
      expect(existsSync(path.join(dist, file)), file).toBe(true);
    }
    expect(existsSync(path.join(dist, '_drafts'))).toBe(false);
    const guideHtml = readFileSync(path.join(dist, 'guide/index.html'), 'utf8');
    expect(guideHtml).toContain('The limit is 512KB.');
    expect(guideHtml).toContain('<link rel="canonical" href="https://docs.example.com/docs/guide/">');
    expect(guideHtml).not.toMatch(/<script>(?!<\/script>)/); // no inline script
    const home = readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(home).toContain('href="/docs/guide/"');
    expect(home).toContain('href="/docs/guide/setup/#install"');
    const images = readdirSync(path.join(dist, 'assets/img'));
    expect(images).toEqual([expect.stringMatching(/^diagram\.[0-9a-f]{8}\.png$/)]);
    expect(readFileSync(path.join(dist, 'old/index.html'), 'utf8')).toContain('url=/docs/guide/');
    expect(readFileSync(path.join(dist, '_redirects'), 'utf8')).toContain('/docs/old /docs/guide/ 301');
  });

  it('reports every content error with file, line and column, and fails', async () => {
    const root = await makeTree({
      '_site.yaml': `${SITE.replace('/guide/setup/]', '/guide/setup/, /guide/missing/]').replace('/old: /guide/', '/old: /nowhere/')}`,
      'README.md': '# Home\n\nA [broken](/guide/setpu/) link and a [bad anchor](/guide/setup/#instal).\n',
      'guide/README.md': '# Guide\n\nUnknown {{ LIMT }} here.\n\n![missing](./nope.png)\n',
      'guide/setup.md': '# Setup\n\n## Install\n',
      'guide/setup/README.md': '# Setup again\n',
      'bad-yaml.md': '---\ntitle: "unterminated\n---\n# Bad\n',
      'latin1.md': new Uint8Array([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]),
    });
    const result = await buildTree(root);
    expect(result.ok).toBe(false);
    expect(messages(result)).toMatchInlineSnapshot(`
      [
        "_site.yaml:6:1 sidebar entry /guide/missing/ is not a page",
        "_site.yaml:8:1 redirect /old leads to /nowhere/, which is not a page",
        "bad-yaml.md:2:1 invalid frontmatter YAML: Missing closing "quote",
        "guide/README.md:3:9 unknown constant "LIMT" (did you mean "LIMIT"?)",
        "guide/README.md:5:1 image not found: ./nope.png",
        "guide/setup.md:1:1 route /guide/setup/ is already claimed by guide/setup/README.md: rename or remove one of them",
        "latin1.md:1:6 file is not valid UTF-8: save it with UTF-8 encoding",
        "README.md:3:3 broken link "/guide/setpu/": no page at /guide/setpu/ (did you mean "/guide/setup/"?)",
        "README.md:3:38 broken anchor "/guide/setup/#instal": /guide/setup/ has no heading #instal",
      ]
    `);
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });

  it('names _site.yaml, the key and the rule it breaks in site configuration errors', async () => {
    const root = await makeTree({
      '_site.yaml': 'title: T\nbogus: 1\nconstants:\n  lower_case: 3\n',
      'README.md': '# Home\n',
    });
    const result = await buildTree(root);
    expect(messages(result)).toEqual([
      '_site.yaml:2:1 unknown key "bogus" in _site.yaml',
      '_site.yaml:4:15 "constants.lower_case" constant names are UPPER_SNAKE_CASE',
    ]);
  });

  it('stops at a site configuration error, before pages that could only echo it', async () => {
    const pages = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`page-${i}.md`, `# Page ${i}\n\nThe limit is {{ LIMIT }}.\n`]),
    );
    const root = await makeTree({
      '_site.yaml': 'title: T\nconstants:\n  LIMIT: 10\nfeedbak: true\n',
      'README.md': '# Home\n',
      ...pages,
    });
    const result = await buildTree(root);
    expect(result.ok).toBe(false);
    expect(messages(result)).toEqual(['_site.yaml:4:1 unknown key "feedbak" in _site.yaml']);
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });

  it('reports a symbolic link loop instead of hanging', async () => {
    const root = await makeTree({ 'README.md': '# Home\n', 'a/README.md': '# A\n' });
    await symlink(path.join(root, 'content'), path.join(root, 'content/a/loop'));
    const result = await buildTree(root);
    expect(messages(result)).toEqual(['a/loop:1:1 symbolic link loop: this folder links back to one of its parents']);
  });

  it('turns content problems into warnings with --no-strict and still builds', async () => {
    const root = await makeTree({ 'README.md': '# Home\n\n[gone](/missing/)\n' });
    const result = await buildTree(root, { strict: false });
    expect(result.ok).toBe(true);
    expect(messages(result)).toEqual(['README.md:3:1 warning: broken link "/missing/": no page at /missing/']);
  });

  it('suggests for a relative link the page it leads to from the root, and nothing for a page long gone', async () => {
    const root = await makeTree({
      'README.md': '# Home\n',
      'workflows/steps/code.md': '# Code steps\n',
      'copy1/workflows/steps/code.md': '# Code steps, copied\n',
      'apps/twitter/README.md':
        '# Twitter\n\n[code steps](workflows/steps/code/) and [the old API](/apps/twitter/api-v1/)\n',
    });
    const result = await buildTree(root, { strict: false });
    expect(messages(result)).toEqual([
      'apps/twitter/README.md:3:1 warning: broken link "workflows/steps/code/": no page at /apps/twitter/workflows/steps/code/ (did you mean "/workflows/steps/code/"?)',
      'apps/twitter/README.md:3:41 warning: broken link "/apps/twitter/api-v1/": no page at /apps/twitter/api-v1/',
    ]);
  });

  it('checks frontmatter prev/next routes and ships them in the form the app looks up', async () => {
    const files = {
      ...GOOD,
      'guide/extra.md': '---\ntitle: Extra\nprev: /guid\nnext: /guide/setup.md\n---\n\nText.\n',
    };
    const strict = await buildTree(await makeTree(files));
    expect(messages(strict)).toEqual([
      'guide/extra.md:3:7 broken prev link "/guid": no page at /guid/ (did you mean "/guide/"?)',
    ]);
    expect(strict.ok).toBe(false);

    const root = await makeTree(files);
    const loose = await buildTree(root, { strict: false });
    expect(messages(loose)).toEqual([
      'guide/extra.md:3:7 warning: broken prev link "/guid": no page at /guid/ (did you mean "/guide/"?)',
    ]);
    const manifest = JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
    const extra = manifest.pages.find((p) => p.path === '/guide/extra/');
    expect(extra?.frontmatter).toEqual({ title: 'Extra', prev: '/guid/', next: '/guide/setup/' });
    if (!extra) throw new Error('no /guide/extra/ record');
    expect(neighboursOf(extra, indexManifest(manifest))).toEqual({
      prev: undefined,
      next: { text: 'Setup', link: '/guide/setup/' },
    });
  });

  it('copies linked files and rewrites the URLs of raw HTML like markdown ones', async () => {
    const root = await makeTree({
      ...GOOD,
      'guide/README.md':
        '# Guide\n\nGet [the PDF](./files/guide.pdf#page=2).\n\n' +
        '<p><img src="./diagram.png" alt="D"> and <a href="setup.md#install">setup</a></p>\n',
      'guide/files/guide.pdf': '%PDF-1.4\n',
    });
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    const dist = path.join(root, 'dist');
    const [pdf] = readdirSync(path.join(dist, 'assets/files'));
    expect(pdf).toMatch(/^guide\.[0-9a-f]{8}\.pdf$/);
    expect(readFileSync(path.join(dist, 'assets/files', pdf ?? ''), 'utf8')).toBe('%PDF-1.4\n');
    const [png] = readdirSync(path.join(dist, 'assets/img'));
    const guide = readFileSync(path.join(dist, 'guide/index.html'), 'utf8');
    expect(guide).toContain(`<a href="/docs/assets/files/${pdf}#page=2">the PDF</a>`);
    expect(guide).toContain(`<img src="/docs/assets/img/${png}" decoding="async" alt="D" />`);
    expect(guide).toContain('<a href="/docs/guide/setup/#install">setup</a>');
  });

  it('reports missing files and broken raw HTML links with file, line and column', async () => {
    // A missing file is an error in markdown, a warning in raw HTML (which passes through as written).
    const root = await makeTree({
      ...GOOD,
      'guide/bad.md': '# Bad\n\n[gone](./gone.pdf)\n\n<p><a href="/guide/setpu/">raw</a> <img src="./nope.png"></p>\n',
    });
    const result = await buildTree(root);
    expect(messages(result)).toEqual([
      'guide/bad.md:3:1 file not found: ./gone.pdf',
      'guide/bad.md:5:12 broken link "/guide/setpu/": no page at /guide/setpu/ (did you mean "/guide/setup/"?)',
      'guide/bad.md:5:45 warning: image not found: ./nope.png',
    ]);
  });

  it('never copies an image or file from outside the content folder', async () => {
    const root = await makeTree({
      'README.md': '# Home\n\n![up](../outside.png)\n\n![leak](./leak.png)\n\n[secret](./secret.txt)\n',
    });
    await writeFile(path.join(root, 'outside.png'), 'not for the site');
    await symlink(path.join(root, 'outside.png'), path.join(root, 'content/leak.png'));
    await symlink(path.join(root, 'outside.png'), path.join(root, 'content/secret.txt'));
    const result = await buildTree(root);
    expect(messages(result)).toEqual([
      'README.md:3:1 image "../outside.png" is outside the content folder',
      'README.md:5:1 image "./leak.png" is outside the content folder',
      'README.md:7:1 file "./secret.txt" is outside the content folder',
    ]);
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
    // --no-strict builds the page, with the same messages as warnings, and still copies none of them.
    const loose = await buildTree(root, { strict: false });
    expect(loose.ok).toBe(true);
    expect(messages(loose).every((m) => m.includes(' warning: ') && m.includes('is outside the content folder'))).toBe(
      true,
    );
    expect(readdirSync(path.join(root, 'dist/assets'))).not.toContain('img');
    expect(readdirSync(path.join(root, 'dist/assets'))).not.toContain('files');
  });

  it('never publishes a page linked from outside the content folder, --no-strict included', async () => {
    const root = await makeTree({ 'README.md': '# Home\n' });
    await writeFile(path.join(root, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    await symlink(path.join(root, 'passwd'), path.join(root, 'content/passwd.md'));
    const strict = await buildTree(root);
    expect(messages(strict)).toEqual([
      'passwd.md:1:1 page links to a file outside the content folder: it is not published',
    ]);
    expect(strict.ok).toBe(false);
    const loose = await buildTree(root, { strict: false });
    expect(messages(loose)).toEqual([
      'passwd.md:1:1 warning: page links to a file outside the content folder: it is not published',
    ]);
    expect(loose.ok).toBe(true);
    expect(existsSync(path.join(root, 'dist/passwd'))).toBe(false);
    const published = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .map((name) => path.join(root, name))
      .filter((file) => /^(dist|manifest)\//.test(path.relative(root, file)) && statSync(file).isFile());
    expect(published.filter((file) => readFileSync(file, 'utf8').includes('root:x:0:0'))).toEqual([]);
  });

  it('leaves the previous manifest/ and dist/ untouched when a build fails', async () => {
    const root = await makeTree(GOOD);
    expect((await buildTree(root)).ok).toBe(true);
    const before = { dist: snapshot(path.join(root, 'dist')), manifest: snapshot(path.join(root, 'manifest')) };
    await writeFile(path.join(root, 'content/guide/README.md'), '# Guide\n\n[broken](/nowhere/)\n');
    const failed = await buildTree(root);
    expect(failed.ok).toBe(false);
    expect(snapshot(path.join(root, 'dist'))).toEqual(before.dist);
    expect(snapshot(path.join(root, 'manifest'))).toEqual(before.manifest);
    expect(readdirSync(root, { recursive: true }).filter((n) => n.includes('.replacing-'))).toEqual([]);
  });

  it('produces identical output for identical input', async () => {
    const root = await makeTree(GOOD);
    await buildTree(root);
    const first = snapshot(path.join(root, 'dist'));
    await buildTree(root, { outDir: path.join(root, 'dist2'), manifestDir: path.join(root, 'manifest2') });
    expect(snapshot(path.join(root, 'dist2'))).toEqual(first);
  });

  /** Builds `root` with `first` and, into other folders, with `second`: both without a problem; gives the second's dist/. */
  async function buildsAlike(
    root: string,
    first: Partial<BuildOptions>,
    second: Partial<BuildOptions>,
  ): Promise<string> {
    expect(messages(await buildTree(root, first))).toEqual([]);
    const other = { outDir: path.join(root, 'dist2'), manifestDir: path.join(root, 'manifest2') };
    expect(messages(await buildTree(root, { ...second, ...other, cacheDir: path.join(root, '.cache2') }))).toEqual([]);
    expect(snapshot(other.outDir)).toEqual(snapshot(path.join(root, 'dist')));
    expect(snapshot(other.manifestDir)).toEqual(snapshot(path.join(root, 'manifest')));
    return other.outDir;
  }

  it('builds the same site with its pages made on threads as on its own thread, code highlighted', async () => {
    const root = await makeTree({ ...GOOD, ...codePages() });
    const onThreads = await buildsAlike(root, { analyzeThreads: 0 }, { analyzeThreads: 2 });
    expect(readFileSync(path.join(onThreads, 'code/page-0/index.html'), 'utf8')).toMatch(
      /<span class="line c-[0-9a-f]+-[0-9a-f]+ hl"><span class="c-[0-9a-f]+-[0-9a-f]+">const<\/span>/,
    );
  }, 60_000);

  it('builds the same site when its own thread makes pages beside a page thread: a small site, its code not yet highlighted', async () => {
    const pages = codePages(800);
    // The size at which a build with an empty highlight cache shares the pass that way, by default.
    const share = pagePassShare(Object.keys(pages).length + 3, true);
    expect(share.here && share.threads > 0).toBe(true);
    await buildsAlike(await makeTree({ ...GOOD, ...pages }), {}, { analyzeThreads: 0 });
  }, 60_000);
});
