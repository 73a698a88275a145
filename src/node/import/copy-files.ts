import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ImportReport } from './report';

/**
 * The files an import copies as they are: everything of the old pages folder that is not a page (images
 * and files next to pages), and the public folder, whose files the old site served from its root.
 */

/** Folders of the old site that are its machinery, not its content. */
const SKIPPED = new Set(['.vuepress', '.vitepress', 'node_modules', '.git']);

/** Every file of the pages folder, the old site's machinery and public folder excepted. */
export async function listFiles(dir: string, publicDir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (folder: string) => {
    const entries = await readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (SKIPPED.has(entry.name) || full === publicDir) continue;
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  await walk(dir);
  return files;
}

/** The public folder's files at the content folder's root; a file of the same name already there wins. */
export async function copyPublic(
  publicDir: string,
  out: string,
  source: string,
  report: ImportReport,
): Promise<number> {
  let files: string[];
  try {
    files = await listFiles(publicDir, '');
  } catch {
    return 0;
  }
  let copied = 0;
  for (const file of files) {
    const relative = path.relative(publicDir, file);
    const target = path.join(out, relative);
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    ) {
      report.lost(
        path.relative(source, file).split(path.sep).join('/'),
        0,
        `not copied: the content folder already has ${relative}`,
      );
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(file, target);
    copied++;
  }
  return copied;
}
