import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { POINTER_FILE } from '../../shared/site-data';
import { digestOfAll, sourceDigest } from '../content-hash';
import type { Diagnostic } from '../diagnostics';
import { writeAside } from '../write-aside';

/** The folders of one site of the build (build-versions.ts): what a mark is of, and where it is kept. */
interface SiteFolders {
  contentDir: string;
  manifestDir: string;
  outDir: string;
  cacheDir: string;
}

/** What a version's last build left, beside its caches: what it was made from, and what it wrote. */
interface BuiltMark {
  /** Everything the version's outputs are made from (`versionMark`). */
  madeFrom: string;
  /** Its pointer's, redirect table's and manifest's stats as written (`outputsNow`): its outputs are still those. */
  outputs: string;
  pages: number;
  /** Its problems (warnings): reported again by every build that keeps it. */
  diagnostics: Diagnostic[];
}

const MARK_FILE = 'built.json';

/** The build's own code, whose change may change every output: the whole of `src/` and the locked packages. */
export const codeDigest = (srcDir: string): string =>
  sourceDigest(srcDir, ['node', 'shared', 'client', '../package-lock.json'], 'versions');

/** A file of a content folder, as its mark takes it: its path (`/`-separated), size and time. */
export interface FolderFile {
  relative: string;
  size: number;
  mtimeMs: number;
}

/**
 * Every file of a content folder, with its size and time (a few thousand stats, no reads), or with
 * `names` only its files' names (sizes and times 0).
 */
export function folderFiles(root: string, names = false): FolderFile[] {
  const files: FolderFile[] = [];
  // Each entry's folder starts with the folder read: a file's relative path is what follows, cut rather
  // than worked out by `path.relative`, which resolves both paths for each of a version's thousands of files.
  const folder = path.resolve(root);
  const start = path.join(folder, path.sep).length;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { size, mtimeMs } = names ? { size: 0, mtimeMs: 0 } : statSync(file);
    const relative = file.slice(start);
    files.push({ relative: path.sep === '/' ? relative : relative.split(path.sep).join('/'), size, mtimeMs });
  }
  return files;
}

/**
 * What a version's outputs are made from: every file of its folder (`folderFiles`), what the current site
 * gives it (as JSON), its folders and strictness, and the build's code.
 */
export function versionMark(folders: SiteFolders, given: unknown, code: string, files: readonly FolderFile[]): string {
  const parts = [code, JSON.stringify(folders), JSON.stringify(given)];
  for (const { relative, size, mtimeMs } of files) parts.push(`${relative}\0${size}\0${mtimeMs}`);
  return digestOfAll(parts.sort());
}

/**
 * Which files a version's pointer, redirect table and whole manifest are now, by their stats: a build
 * puts a new file in place by renaming it there (another inode), a hand edit changes its time; missing
 * ones count as such.
 */
function outputsNow(folders: SiteFolders): string {
  const stamp = (file: string) => {
    try {
      const { ino, size, mtimeMs } = statSync(file);
      return `${ino}:${size}:${mtimeMs}`;
    } catch {
      return '(none)';
    }
  };
  // Its redirect table too: the site's own is made from it (build-versions.ts).
  const files = [POINTER_FILE, '_redirects'].map((file) => path.join(folders.outDir, file));
  return [...files, path.join(folders.manifestDir, 'manifest.json')].map(stamp).join('|');
}

/**
 * The result of the version's last build when nothing it is made from changed since and its outputs are
 * as that build left them: the version is then not built again, its files all kept as they are.
 *
 * Its outputs are known by three files (`outputsNow`), not file by file: a version's thousands of files
 * would cost a build where only the current version changed as many stats as the version's pages. That is
 * safe because `dist/` and `manifest/` are the build's: nothing but a build writes them, and a build that
 * changes anything of the version writes its pointer and its manifest anew (in place by a rename, so
 * another inode), and a removed folder takes them with it. What a hand in the outputs could still do
 * unseen is edit or delete a single document or fragment of an untouched version: it stays so until the
 * version changes, or its folder in `dist/` is removed, when the next build makes it whole.
 */
export async function unchangedVersion(
  folders: SiteFolders,
  madeFrom: string,
): Promise<{ pages: number; diagnostics: Diagnostic[] } | undefined> {
  try {
    const mark = JSON.parse(await readFile(path.join(folders.cacheDir, MARK_FILE), 'utf8')) as BuiltMark;
    if (mark.madeFrom !== madeFrom || mark.outputs !== outputsNow(folders)) return undefined;
    return { pages: mark.pages, diagnostics: mark.diagnostics };
  } catch {
    return undefined;
  }
}

/** Notes what a version's published build was made from; a failure only costs the next build the version's build. */
export async function markBuilt(
  folders: SiteFolders,
  madeFrom: string,
  result: { pages: number; diagnostics: Diagnostic[] },
): Promise<void> {
  const mark: BuiltMark = {
    madeFrom,
    outputs: outputsNow(folders),
    pages: result.pages,
    diagnostics: result.diagnostics,
  };
  try {
    await writeAside(path.join(folders.cacheDir, MARK_FILE), JSON.stringify(mark));
  } catch {
    // The next build builds the version again.
  }
}
