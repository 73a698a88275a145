import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFolder } from '../../../../src/node/dev/watch-folder';

describe('watching the content folder', () => {
  const cleanUps: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanUps.splice(0).map((cleanUp) => cleanUp()));
  });

  /** A folder with `page.md`, watched; every change reported is read at once, as a rebuild reads it. */
  async function watched() {
    const folder = await mkdtemp(path.join(tmpdir(), 'docs-watch-'));
    const file = path.join(folder, 'page.md');
    await writeFile(file, '# Page\n\nFirst text.\n');
    const seen: string[] = [];
    let onChange = () => {};
    const watcher = watchFolder(folder, (name) => {
      if (name !== 'page.md') return;
      void readFile(file, 'utf8').then((text) => {
        seen.push(text);
        onChange();
      });
    });
    cleanUps.push(
      () => rm(folder, { recursive: true, force: true }),
      () => watcher.close(),
    );
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return { file, seen, afterNextChange: (then: () => void) => (onChange = then) };
  }

  it("reports a file's save that comes right after the one before was reported and read", async () => {
    const { file, seen, afterNextChange } = await watched();
    // An editor that saves twice in a row (a save, then its formatting written over it): the second save
    // comes once the first has been read, before the watcher has looked away from the file.
    afterNextChange(() => {
      afterNextChange(() => {});
      void writeFile(file, '# Page\n\nThird text.\n');
    });
    await writeFile(file, '# Page\n\nSecond text.\n');
    await expect.poll(() => seen.at(-1), { timeout: 5_000 }).toBe('# Page\n\nThird text.\n');
    expect(seen[0]).toBe('# Page\n\nSecond text.\n');
  });
});
