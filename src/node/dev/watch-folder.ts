import path from 'node:path';
import { watch } from 'chokidar';

const toPosix = (p: string) => p.split(path.sep).join('/');

/** An editor's swap, backup and temporary files: never a change of the site. */
const isEditorFile = (name: string) => {
  const base = path.basename(name);
  return base.startsWith('.#') || base.endsWith('~') || /\.(swp|swx|tmp)$/.test(base) || /^\d+$/.test(base);
};

/**
 * Calls `changed` with the path (relative to `folder`, `/`-separated) of each file or folder added, changed
 * or removed under it. A watcher of each folder, not Node's recursive `fs.watch`: on Linux that one watches
 * each file, and loses a file an editor saves by renaming a new one over it (every later save of it goes
 * unseen). A folder's watcher names every entry that changes in it, however it was written.
 */
export function watchFolder(folder: string, changed: (relativePath: string) => void) {
  const watcher = watch(folder, { ignoreInitial: true, ignored: (file) => isEditorFile(file) });
  const report = (file: string) => changed(toPosix(path.relative(folder, file)));
  watcher.on('all', (_event, file) => report(file));
  // The watcher passes on the first of a file's changes a few milliseconds apart, not the last: a save that
  // empties the file and then writes it would be read empty and not again. Every change the system reports
  // counts (the dev session makes one rebuild of those that come together).
  watcher.on('raw', (event, name, details) => {
    const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
    if (event !== 'change' || !name || !watched) return;
    const file = path.basename(watched) === name ? watched : path.join(watched, name);
    if (!isEditorFile(file)) report(file);
  });
  return watcher;
}
