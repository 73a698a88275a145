import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { isTextInParts, OutputFolder } from './output-folder';
import { POINTER_FILE } from '../../shared/site-data';
import type { SiteFile } from './site-files';

/**
 * What a file was last written as: a page's files by the page's fragment (the page's document also shows
 * the site around it, but the app replaces that part as soon as it starts, so an edit re-renders only the
 * edited page), other files by their contents. The not-found page has neither and is written with the
 * whole site only.
 */
function versionOf(file: SiteFile): string {
  if (file.page) return `${file.page.key}.${file.page.hash}`;
  if ('data' in file) {
    const hash = createHash('sha256');
    const { data } = file;
    if (isTextInParts(data)) for (const part of data) hash.update(part.read());
    else hash.update(data);
    return hash.digest('base64');
  }
  return '';
}

/** The version of a file whose write may have failed: never equal to a real one, so it is written again. */
const UNKNOWN = 'unknown';

/**
 * Hashed files an open tab may still ask for: never removed while the dev server runs. The search shards
 * are the exception: an update of the search data renames the shards it changed and removes their old
 * names, and a tab that asks for a shard that is gone switches to the new data, as it would after a
 * deployment.
 */
const isKept = (file: string) => file.startsWith('assets/') && !file.startsWith('assets/js/search/');

/**
 * `npm run dev`'s output folder, written in place while tabs read it: only the files of `siteFiles` that
 * changed since the last write, in an order that never lets a tab read a file before what it points to
 * (the data, then the documents, then the pointer to the new manifest).
 */
export class ChangedFilesWriter {
  /** Output path → its version when last written. */
  private readonly versions = new Map<string, string>();

  constructor(
    private readonly root: string,
    /** URL of the dev client script, added to every document written. */
    private readonly devScript?: string,
  ) {}

  /**
   * Writes the files that changed (all of them when `all`), removes the files that left the site (but for
   * the hashed assets), and returns the files written.
   */
  async write(files: Iterable<SiteFile>, all = false): Promise<SiteFile[]> {
    const present = new Set<string>();
    const changed: SiteFile[] = [];
    for (const file of files) {
      present.add(file.path);
      const version = versionOf(file);
      if (!all && this.versions.get(file.path) === version) continue;
      this.versions.set(file.path, version);
      changed.push(file);
    }
    const last = (file: SiteFile) => ('document' in file ? 1 : 0) + (file.path === POINTER_FILE ? 2 : 0);
    try {
      await OutputFolder.fill(this.root, async (out) => {
        for (const stage of [0, 1, 2]) {
          await out.settled();
          for (const file of changed.filter((f) => last(f) === stage)) {
            if ('copyOf' in file) await out.copy(file.copyOf, file.path);
            else if ('data' in file) await out.put(file.path, file.data);
            else await out.put(file.path, this.withDevScript(await file.document()));
          }
        }
      });
    } catch (error) {
      // Which of them are on disk is unknown: the next write writes them all again.
      for (const file of changed) this.versions.set(file.path, UNKNOWN);
      throw error;
    }
    for (const file of [...this.versions.keys()]) {
      if (present.has(file)) continue;
      this.versions.delete(file);
      if (!isKept(file)) await rm(path.join(this.root, file), { force: true });
    }
    return changed;
  }

  private withDevScript(document: string | Uint8Array): string {
    const html = typeof document === 'string' ? document : Buffer.from(document).toString('utf8');
    const src = this.devScript;
    return src ? html.replace('</head>', `<script src="${src}"></script>\n</head>`) : html;
  }
}
