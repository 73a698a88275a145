import { readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOutput } from '../../../helpers/output';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

/** A one-pixel PNG, and the same pixel in another colour. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const OTHER_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const site = {
  'README.md': '# Home\n\nSee [the guide](./guide.md) and [the diagram page](./picture.md).\n',
  'guide.md': '# Guide\n\nSome text.\n\n```js\nconst answer = 42;\n```\n\n## Setup\n\nMore text.\n',
  'picture.md': '# Picture\n\n![A diagram](./diagram.png)\n',
  'diagram.png': PIXEL,
  'other.md': '# Other\n\nPlain.\n',
};

/** Builds `root`, then the same content again from scratch in a copy, and expects both outputs to be the same. */
async function expectSameAsCold(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  const cold = await makeTree(files);
  const result = await buildTree(cold);
  expect(result.rendered).toBe(result.pages);
  expect(await buildOutput(root)).toEqual(await buildOutput(cold));
}

describe('the render cache', () => {
  it('takes unchanged pages from the last build, and the site comes out as a cold build makes it', async () => {
    const root = await makeTree(site);
    const first = await buildTree(root);
    expect(messages(first)).toEqual([]);
    expect(first.rendered).toBe(4);
    expect(readdirSync(path.join(root, '.cache')).sort()).toEqual(['highlight.json', 'output', 'pages']);

    const second = await buildTree(root);
    expect(second.rendered).toBe(0);
    expect(second.pages).toBe(4);
    await expectSameAsCold(root, site);
    // The highlight cache keeps the code of the pages it did not see again.
    const highlight = JSON.parse(readFileSync(path.join(root, '.cache/highlight.json'), 'utf8')) as {
      entries: Record<string, string>;
    };
    expect(Object.keys(highlight.entries)).toHaveLength(1);
  });

  it('renders again a page whose file changed, a page whose image changed, and nothing else', async () => {
    const root = await makeTree(site);
    await buildTree(root);

    const guide = '# Guide\n\nSome other text.\n\n```js\nconst answer = 43;\n```\n';
    await writeFile(path.join(root, 'content/guide.md'), guide);
    const edited = await buildTree(root);
    expect(edited.rendered).toBe(1);
    expect(readFileSync(path.join(root, 'dist/guide/index.html'), 'utf8')).toContain('Some other text.');
    await expectSameAsCold(root, { ...site, 'guide.md': guide });

    await writeFile(path.join(root, 'content/diagram.png'), OTHER_PIXEL);
    const repainted = await buildTree(root);
    expect(repainted.rendered).toBe(1);
    await expectSameAsCold(root, { ...site, 'guide.md': guide, 'diagram.png': OTHER_PIXEL });
  });

  it('renders every page again when the settings change, and a page with a problem on every build', async () => {
    const files = { ...site, '_site.yaml': 'title: Docs\n', 'broken.md': '# Broken\n\n![Missing](./missing.png)\n' };
    const root = await makeTree(files);
    const first = await buildTree(root, { strict: false });
    const warning = messages(first).filter((m) => m.includes('broken.md'));
    expect(warning).toHaveLength(1);

    const again = await buildTree(root, { strict: false });
    expect(again.rendered).toBe(1);
    expect(messages(again).filter((m) => m.includes('broken.md'))).toEqual(warning);

    await writeFile(path.join(root, 'content/_site.yaml'), 'title: Docs\nconstants:\n  LIMIT: 10\n');
    const reconfigured = await buildTree(root, { strict: false });
    expect(reconfigured.rendered).toBe(reconfigured.pages);
  });

  it('is only a speed-up: a damaged index or a lost segment makes the build render those pages again', async () => {
    const root = await makeTree(site);
    await buildTree(root);
    const cacheDir = path.join(root, '.cache/pages');

    const segments = readdirSync(cacheDir).filter((name) => name.startsWith('segment.'));
    for (const segment of segments) await rm(path.join(cacheDir, segment));
    const lost = await buildTree(root);
    expect(messages(lost)).toEqual([]);
    expect(lost.rendered).toBe(4);

    await writeFile(path.join(cacheDir, 'index.jsonl'), '{"identity": "cut off');
    const damaged = await buildTree(root);
    expect(messages(damaged)).toEqual([]);
    expect(damaged.rendered).toBe(4);
    await expectSameAsCold(root, site);
  });

  it('forgets removed pages and keeps its segments few however many builds change a page', async () => {
    const root = await makeTree(site);
    await buildTree(root);
    for (let i = 0; i < 12; i++) {
      await writeFile(path.join(root, 'content/other.md'), `# Other\n\nRevision ${i}.\n`);
      expect((await buildTree(root)).rendered).toBe(1);
    }
    const cacheDir = path.join(root, '.cache/pages');
    expect(readdirSync(cacheDir).filter((name) => name.startsWith('segment.')).length).toBeLessThanOrEqual(8);
    await rm(path.join(root, 'content/other.md'));
    const removed = await buildTree(root);
    expect(removed.pages).toBe(3);
    expect(removed.rendered).toBe(0);
    const lines = readFileSync(path.join(cacheDir, 'index.jsonl'), 'utf8').trim().split('\n').slice(1);
    const listed = lines.map((line) => (JSON.parse(line) as [string, unknown])[0]);
    expect(listed.sort()).toEqual(['README.md', 'guide.md', 'picture.md']);
    const { 'other.md': _removed, ...rest } = site;
    await expectSameAsCold(root, rest);
  });
});
