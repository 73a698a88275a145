import { openSync, writeSync, closeSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFolder } from '../../../../src/node/dev/watch-folder';
import { makeTree } from '../../../helpers/tree';

describe('watchFolder', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  /** A content folder with `guide.md`, watched; `reported` is called with each name the watcher reports. */
  async function watched(reported: (name: string) => void) {
    const root = await makeTree({ 'guide.md': '# Guide\n\nThe first text.\n' });
    const folder = path.join(root, 'content');
    const watcher = watchFolder(folder, reported);
    close = () => watcher.close();
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return path.join(folder, 'guide.md');
  }

  it('reports a save that empties the file and then writes it, after the write', async () => {
    const seen: string[] = [];
    let emptied: (() => void) | undefined;
    const file = await watched((name) => {
      seen.push(name);
      emptied?.();
    });
    // An editor's save: the file emptied, then written a moment later, once its emptying has been reported.
    const fd = openSync(file, 'w');
    await new Promise<void>((resolve) => (emptied = resolve));
    emptied = undefined;
    const reportsBefore = seen.length;
    writeSync(fd, '# Guide\n\nThe saved text.\n');
    closeSync(fd);
    await expect.poll(() => seen.length, { timeout: 2000 }).toBeGreaterThan(reportsBefore);
    expect(new Set(seen)).toEqual(new Set(['guide.md']));
    expect(await readFile(file, 'utf8')).toContain('The saved text.');
  });

  it("reports a file's save that comes right after the one before was reported and read", async () => {
    // Every change reported is read at once, as a rebuild reads it.
    const seen: string[] = [];
    let read: ((text: string) => void) | undefined;
    const file = await watched((name) => {
      if (name !== 'guide.md') return;
      void readFile(file, 'utf8').then((text) => {
        seen.push(text);
        read?.(text);
      });
    });
    const second = '# Guide\n\nThe second text.\n';
    const secondRead = new Promise<void>((resolve) => (read = (text) => text === second && resolve()));
    await writeFile(file, second);
    await secondRead;
    // An editor that saves twice in a row (a save, then its formatting written over it): the second save
    // comes as soon as the first has been read, a few milliseconds after it was reported.
    await writeFile(file, '# Guide\n\nThe third text.\n');
    await expect.poll(() => seen.at(-1), { timeout: 5_000 }).toBe('# Guide\n\nThe third text.\n');
  });
});
