import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { heldText } from '../../../../src/node/analyze/text-store';
import { OutputFolder } from '../../../../src/node/output/output-folder';

describe('an output folder written by several writers at once', () => {
  // Copies run on the thread pool (a page's own files are written at once).
  it('keeps the copies in flight bounded, as for one writer', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-folder-'));
    const source = path.join(root, 'source.png');
    await writeFile(source, 'an image');
    const most = { alone: 0, together: 0 };
    const writer = (out: OutputFolder, name: string, seen: keyof typeof most) => async () => {
      for (let n = 0; n < 400; n++) {
        await out.copy(source, `${name}/${n}.png`);
        most[seen] = Math.max(most[seen], out.writing);
      }
    };
    await OutputFolder.fill(root, (out) => writer(out, 'alone', 'alone')());
    // Two writers of one folder, as the documents and the other files of the site are written.
    await OutputFolder.fill(root, async (out) => {
      await Promise.all([writer(out, 'first', 'together')(), writer(out, 'second', 'together')()]);
    });

    expect(most.alone).toBeGreaterThan(1);
    expect(most.together).toBeLessThanOrEqual(most.alone + 1);
    for (const name of ['alone', 'first', 'second']) expect(await readdir(path.join(root, name))).toHaveLength(400);
  });
});

describe('a text in parts', () => {
  it('is written as its parts joined, whether it fits one batch, none or several', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-folder-'));
    const large = ['é'.repeat(400_000), 'x'.repeat(700_000), 'ü'.repeat(500_000), 'end'];
    const texts = { small: ['<div>', 'a page', '</div>'], none: [], large };
    await OutputFolder.fill(root, async (out) => {
      for (const [name, parts] of Object.entries(texts)) await out.put(`${name}.txt`, parts.map(heldText));
    });
    for (const [name, parts] of Object.entries(texts))
      expect(await readFile(path.join(root, `${name}.txt`), 'utf8')).toBe(parts.join(''));
  });
});
