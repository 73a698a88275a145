import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importSite } from '../../../../src/node/import/import-site';
import type { BuildResult } from '../../../../src/node/build';
import { pngImage } from '../../../helpers/png';
import { buildTree, messages } from '../../../helpers/tree';

/** A VuePress 1 site's images, written each way its writers write them. */
const SOURCE: Record<string, string | Uint8Array> = {
  '.vuepress/config.js': "module.exports = { title: 'Docs' };\n",
  '.vuepress/public/images/logo.png': pngImage(240, 80),
  'README.md': [
    '# Home',
    '',
    '![Logo](/images/logo.png)',
    '',
    `<img :src="$withBase('/images/logo.png')" alt="Logo">`,
    '',
    '![build](https://img.shields.io/badge/build-passing-green.svg)',
    '',
    '<img src="https://example.com/banner.png" width="88" height="31" alt="banner">',
    '',
  ].join('\n'),
  'guide/screen.png': pngImage(1600, 1000),
  'guide/README.md': [
    '# Guide',
    '',
    '![The editor](./screen.png)',
    '',
    ...['width="300"', 'width="300px"', 'width="50%"', 'height="120"', 'width="30em"', 'width="300" height="200"'].map(
      (sides) => `<img src="./screen.png" ${sides} alt="The editor">\n`,
    ),
    '<picture>',
    '  <source srcset="./screen.png" media="(prefers-color-scheme: dark)">',
    '  <img alt="The editor">',
    '</picture>',
    '',
  ].join('\n'),
};

describe('the images of an imported VuePress site', () => {
  let root: string;
  let built: BuildResult;
  beforeAll(async () => {
    const source = await mkdtemp(path.join(tmpdir(), 'docs-import-images-'));
    for (const [file, content] of Object.entries(SOURCE)) {
      await mkdir(path.dirname(path.join(source, file)), { recursive: true });
      await writeFile(path.join(source, file), content);
    }
    root = await mkdtemp(path.join(tmpdir(), 'docs-import-images-'));
    await importSite({ source, out: path.join(root, 'content') });
    built = await buildTree(root);
  }, 60_000);

  it('all have a width and a height once built, but a remote one given neither, which is warned of', async () => {
    const fragments = await readdir(path.join(root, 'manifest/pages'));
    const images: string[] = [];
    for (const file of fragments) {
      const html = await readFile(path.join(root, 'manifest/pages', file), 'utf8');
      images.push(...(html.match(/<img\b[^>]*>/g) ?? []));
    }
    const sized = images.filter((img) => / width="\d+" /.test(`${img} `) && / height="\d+"/.test(img));
    expect(images).toHaveLength(12);
    expect(images.filter((img) => !sized.includes(img))).toEqual([
      '<img src="https://img.shields.io/badge/build-passing-green.svg" alt="build" decoding="async" loading="lazy" />',
    ]);
    expect(sized).toHaveLength(11);
    expect(messages(built)).toEqual([
      'README.md:7:1 warning: remote image "https://img.shields.io/badge/build-passing-green.svg" has no size the build can read, so the text after it moves when it loads: write it as <img src="https://img.shields.io/badge/build-passing-green.svg" width="…" height="…">, or copy the image into the content folder',
    ]);
  });

  it("bound to VuePress's $withBase, show the image it named", async () => {
    const home = await readFile(path.join(root, 'dist/index.html'), 'utf8');
    const logos = home.match(/<img src="\/docs\/assets\/img\/logo\.[0-9a-f]+\.png"[^>]*>/g) ?? [];
    expect(logos).toHaveLength(2);
    for (const logo of logos) expect(logo).toMatch(/ width="240" height="80"/);
    const report = await readFile(path.join(root, 'content/_import-report.md'), 'utf8');
    expect(report).toContain('`:src="$withBase(\'/images/logo.png\')"` became `src="/images/logo.png"`');
  });
});
