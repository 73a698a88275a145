import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OTHER_PIXEL, PIXEL } from '../../../helpers/png';
import { buildTree, makeTree, messages } from '../../../helpers/tree';
import { CURRENT_AND_V1 } from '../../../helpers/versions';

/** The pages of one version: links between them, an image, a constant. */
const PAGES = {
  'README.md': '# Home\n\nSee the [guide](guide.md) and the [diagram](picture.md).\n',
  'guide.md': '# Guide\n\nUp to {{ LIMIT }} runs. Back [home](/).\n',
  'picture.md': '# Picture\n\n![A diagram](./diagram.png)\n',
  'plain.md': '# Plain\n\nNothing else.\n',
  'diagram.png': PIXEL,
};

/** The current site and v1 beside it, each with the same pages and the same constant. */
function twoVersions(v1Constants = 'constants:\n  LIMIT: 10\n'): Record<string, string | Uint8Array> {
  const v1 = Object.fromEntries(Object.entries(PAGES).map(([name, text]) => [`../v1/${name}`, text]));
  return {
    '_site.yaml': `title: Docs\nconstants:\n  LIMIT: 10\n${CURRENT_AND_V1}`,
    ...PAGES,
    ...v1,
    '../v1/_site.yaml': `title: Old\n${v1Constants}`,
  };
}

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the render cache of a site with versions', () => {
  it('makes a page the versions share once, and gives each version its own base', async () => {
    const root = await makeTree(twoVersions());
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    expect(result.pages).toBe(8);
    // v1 is built first, and the current version takes every page from the cache.
    expect(result.rendered).toBe(4);
    // One cache of pages, for both.
    const versionFiles = readdirSync(path.join(root, '.cache/versions'), { recursive: true, encoding: 'utf8' });
    expect(versionFiles.filter((file) => path.basename(file) === 'pages')).toEqual([]);
    expect(readdirSync(path.join(root, '.cache/pages')).filter((file) => file.startsWith('segment.'))).toHaveLength(1);

    // The same page, each version's links and images under its own base.
    const v1Home = read(root, 'dist/v1/index.html');
    expect(v1Home).toContain('href="/docs/v1/guide/"');
    expect(v1Home).not.toContain('href="/docs/guide/"');
    expect(read(root, 'dist/index.html')).toContain('href="/docs/guide/"');
    expect(read(root, 'dist/v1/guide.md')).toContain('[home](/docs/v1/)');
    expect(read(root, 'dist/guide.md')).toContain('[home](/docs/)');
    const image = /src="(\/docs\/[^"]*diagram[^"]*\.png)"/;
    expect(read(root, 'dist/v1/picture/index.html').match(image)?.[1]).toMatch(/^\/docs\/v1\/assets\/img\//);
    expect(read(root, 'dist/picture/index.html').match(image)?.[1]).toMatch(/^\/docs\/assets\/img\//);
    for (const html of [v1Home, read(root, 'dist/v1/picture/index.html'), read(root, 'dist/v1/guide.md')]) {
      expect(html).not.toContain('__page-base');
    }
  });

  it('makes a version’s page again where its image or a constant it uses differs, and only there', async () => {
    const files = { ...twoVersions('constants:\n  LIMIT: 5\n'), '../v1/diagram.png': OTHER_PIXEL };
    const root = await makeTree(files);
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    // v1's four, then the current version's guide (another LIMIT) and picture (another image).
    expect(result.rendered).toBe(6);
    expect(read(root, 'dist/v1/guide/index.html')).toContain('Up to 5 runs.');
    expect(read(root, 'dist/guide/index.html')).toContain('Up to 10 runs.');

    // v1 takes the current version's image: its picture page is the current version's, made once already.
    await writeFile(path.join(root, 'content/../v1/diagram.png'), PIXEL);
    const repainted = await buildTree(root);
    expect(repainted.rendered).toBe(0);
    const image = (file: string) => /assets\/img\/(diagram\.[0-9a-f]+\.png)/.exec(read(root, file))?.[1];
    expect(image('dist/v1/picture/index.html')).toBe(image('dist/picture/index.html'));
  });

  it('makes a page with problems once for versions whose problems are warnings alike', async () => {
    const warned = '# Warned\n\n```fortran77\nPRINT *, 1\n```\n';
    const root = await makeTree({ ...twoVersions(), 'warned.md': warned, '../v1/warned.md': warned });
    const result = await buildTree(root, { strict: false });
    expect(messages(result).filter((m) => m.includes('warned.md:'))).toHaveLength(2);
    expect(result.rendered).toBe(5);
  });

  it('keeps the pages of a version left as it is for as many builds as a site without versions', async () => {
    // v1 and v0 beside the current site, each with pages of its own: v0 is never touched.
    const own = (version: string) => ({
      [`../${version}/_site.yaml`]: 'title: Old\n',
      [`../${version}/README.md`]: `# Home of ${version}\n`,
      [`../${version}/notes.md`]: `# Notes of ${version}\n`,
      [`../${version}/steps.md`]: `# Steps of ${version}\n`,
    });
    const versions = `${CURRENT_AND_V1}  - text: v0\n    content: ../v0\n    route: /v0/\n    strict: false\n`;
    const root = await makeTree({
      '_site.yaml': `title: Docs\n${versions}`,
      'README.md': '# Home\n',
      ...own('v1'),
      ...own('v0'),
    });
    expect((await buildTree(root)).rendered).toBe(7);
    // Builds that change a page of the current site and of v1, each built again with its two versions.
    for (let i = 0; i < 5; i++) {
      await writeFile(path.join(root, 'content/README.md'), `# Home\n\nRevision ${i}.\n`);
      await writeFile(path.join(root, 'v1/notes.md'), `# Notes of v1\n\nRevision ${i}.\n`);
      expect((await buildTree(root)).rendered).toBe(2);
    }
    // v0's other pages are still in the cache: only the page changed is made.
    await writeFile(path.join(root, 'v0/notes.md'), '# Notes of v0\n\nAt last.\n');
    const changed = await buildTree(root);
    expect(messages(changed)).toEqual([]);
    expect(changed.rendered).toBe(1);
  });
});
