import { openSync, writeSync, closeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFolder } from '../../../../src/node/dev/watch-folder';
import { makeTree } from '../../../helpers/tree';

describe('watchFolder', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('reports a save that empties the file and then writes it, after the write', async () => {
    const root = await makeTree({ 'guide.md': '# Guide\n\nThe first text.\n' });
    const folder = path.join(root, 'content');
    const file = path.join(folder, 'guide.md');
    const seen: string[] = [];
    let emptied: (() => void) | undefined;
    const watcher = watchFolder(folder, (name) => {
      seen.push(name);
      emptied?.();
    });
    close = () => watcher.close();
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
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
});
