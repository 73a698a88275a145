import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { DiagnosticList } from '../diagnostics';

/** A markdown file of the content tree that is a page. */
export interface ContentFile {
  /** Absolute path on disk. */
  absolutePath: string;
  /** Path relative to the content folder, with forward slashes. */
  relativePath: string;
}

/** `_partials/`, `.drafts/`, `_site.yaml`: names starting with `_` or `.` are never pages. */
function isHidden(name: string): boolean {
  return name.startsWith('_') || name.startsWith('.');
}

const isMarkdown = (name: string) => /\.md$/i.test(name);

/** Whether a path relative to the content folder (`/`-separated) is one the scan lists as a page. */
export function isPageFile(relativePath: string): boolean {
  return isMarkdown(relativePath) && !relativePath.split('/').some(isHidden);
}

/**
 * Lists the page files of a content tree in a stable order. Follows symlinks but reports a link that
 * leads back into a folder already being walked instead of looping forever. Synchronous: a few dozen
 * folder reads, which took 50-100 ms one after another through the thread pool while esbuild and the
 * highlight thread were starting, and take a few milliseconds here.
 */
export async function scanContent(contentDir: string, diagnostics: DiagnosticList): Promise<ContentFile[]> {
  const root = path.resolve(contentDir);
  const files: ContentFile[] = [];
  const walking = new Set<string>();

  function walk(dir: string): void {
    const real = realpathSync(dir);
    const relDir = path.relative(root, dir).split(path.sep).join('/');
    if (walking.has(real)) {
      diagnostics.error(relDir || '.', 1, 1, 'symbolic link loop: this folder links back to one of its parents');
      return;
    }
    walking.add(real);
    const entries = readdirSync(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (isHidden(entry.name)) continue;
      const absolutePath = path.join(dir, entry.name);
      const relativePath = path.relative(root, absolutePath).split(path.sep).join('/');
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(absolutePath);
          if (target.isDirectory()) walk(absolutePath);
          else if (target.isFile() && isMarkdown(entry.name)) files.push({ absolutePath, relativePath });
        } catch {
          diagnostics.error(relativePath, 1, 1, 'broken symbolic link');
        }
        continue;
      }
      if (entry.isDirectory()) walk(absolutePath);
      else if (entry.isFile() && isMarkdown(entry.name)) files.push({ absolutePath, relativePath });
    }
    walking.delete(real);
  }

  walk(root);
  return files;
}
