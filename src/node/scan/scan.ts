import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { DiagnosticList } from '../diagnostics';
import { outputClashes, pageNameProblem } from './page-names';

/** A markdown file of the content tree that is a page. */
export interface ContentFile {
  /** Absolute path on disk. */
  absolutePath: string;
  /** Path relative to the content folder, with forward slashes. */
  relativePath: string;
  /**
   * For a page the build makes from another file (an API reference page, written to the cache folder):
   * that file, relative to the content folder. The page's record names it, as do its edit link and date.
   */
  madeFrom?: string;
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
 * folder reads, each of which would otherwise wait its turn on the thread pool behind whatever else the
 * build has started there.
 *
 * A page must be a file of the content folder, with a name that can be a URL and a route whose output
 * does not land on another file of the site; any other is reported and left out, in a `--no-strict`
 * build too: what is published is what the writers' folder holds (a link to /etc/passwd is not).
 */
export async function scanContent(contentDir: string, diagnostics: DiagnosticList): Promise<ContentFile[]> {
  const root = path.resolve(contentDir);
  const realRoot = realpathSync.native(root);
  const found: ContentFile[] = [];
  const walking = new Set<string>();

  function walk(dir: string): void {
    // The system's realpath: one call per folder, where Node's own walks the path a component at a time.
    const real = realpathSync.native(dir);
    const relDir = path.relative(root, dir).split(path.sep).join('/');
    if (walking.has(real)) {
      diagnostics.error(relDir || '.', 1, 1, 'symbolic link loop: this folder links back to one of its parents');
      return;
    }
    // A folder linked from elsewhere: its pages would be published from outside the content folder.
    const outside = !isInside(realRoot, real);
    walking.add(real);
    const entries = readdirSync(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (isHidden(entry.name)) continue;
      const absolutePath = path.join(dir, entry.name);
      // The folder's relative path and the name: a large tree has tens of thousands of entries.
      const relativePath = relDir ? `${relDir}/${entry.name}` : entry.name;
      const page = () => {
        if (outside || (entry.isSymbolicLink() && !isInside(realRoot, realpathSync(absolutePath)))) {
          diagnostics.error(relativePath, 1, 1, 'page links to a file outside the content folder: it is not published');
        } else found.push({ absolutePath, relativePath });
      };
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(absolutePath);
          if (target.isDirectory()) walk(absolutePath);
          else if (target.isFile() && isMarkdown(entry.name)) page();
        } catch {
          diagnostics.error(relativePath, 1, 1, 'broken symbolic link');
        }
        continue;
      }
      if (entry.isDirectory()) walk(absolutePath);
      else if (entry.isFile() && isMarkdown(entry.name)) page();
    }
    walking.delete(real);
  }

  walk(root);
  const named = found.filter((file) => {
    const problem = pageNameProblem(file.relativePath);
    if (problem) diagnostics.error(file.relativePath, 1, 1, problem);
    return !problem;
  });
  const clashes = outputClashes(named.map((file) => file.relativePath));
  for (const [relativePath, problem] of clashes) diagnostics.error(relativePath, 1, 1, problem);
  return named.filter((file) => !clashes.has(file.relativePath));
}

/** True for the folder itself too: that is no file, so it is reported as not found. */
export function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
