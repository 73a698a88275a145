import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { watch } from 'chokidar';

const toPosix = (p: string) => p.split(path.sep).join('/');

/** An editor's swap, backup and temporary files: never a change of the site. */
const isEditorFile = (name: string) => {
  const base = path.basename(name);
  return base.startsWith('.#') || base.endsWith('~') || /\.(swp|swx|tmp)$/.test(base) || /^\d+$/.test(base);
};

/**
 * For this long after it reports a file's change, the watcher drops the file's further changes
 * (paulmillr/chokidar#1455): one write shows as several, but so does a second save right after the first.
 */
const CHANGES_DROPPED_MS = 50;

/**
 * Calls `changed` with the path (relative to `folder`, `/`-separated) of each file or folder added, changed
 * or removed under it. A watcher of each folder, not Node's recursive `fs.watch`: on Linux that one watches
 * each file, and loses a file an editor saves by renaming a new one over it (every later save of it goes
 * unseen). A folder's watcher names every entry that changes in it, however it was written.
 */
export function watchFolder(folder: string, changed: (relativePath: string) => void) {
  const watcher = watch(folder, { ignoreInitial: true, ignored: (file) => isEditorFile(file) });
  const report = (file: string) => changed(toPosix(path.relative(folder, file)));
  // The files whose changes are being dropped, each as its reported change left it.
  const dropping = new Map<string, Stats>();
  // A save in that time is found by looking at the file once it is over: the rebuild of the change
  // reported may have read the file before that save.
  const lookAgain = (file: string, reported: Stats) => {
    dropping.set(file, reported);
    setTimeout(async () => {
      const now = await stat(file).catch(() => undefined);
      if (watcher.closed || dropping.get(file) !== reported) return;
      dropping.delete(file);
      if (now && (now.mtimeMs !== reported.mtimeMs || now.size !== reported.size || now.ino !== reported.ino))
        report(file);
    }, CHANGES_DROPPED_MS + 10).unref();
  };
  watcher.on('all', (event, file, stats) => {
    report(file);
    if (event === 'change' && stats) lookAgain(file, stats);
    else dropping.delete(file);
  });
  return watcher;
}
