import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { textBytes } from '../analyze/text-store';
import { isTextInParts, OutputFolder, type FileData } from './output-folder';
import { NOT_FOUND_FILE } from '../../shared/root-files';
import { isDeploymentData, POINTER_FILE } from '../../shared/site-data';
import type { DocumentParts } from './render-document';
import type { SiteFile } from './site-files';

/** A file written when a tab asks for it: what it holds, made then. */
type OnRequest = () => Promise<FileData>;

/**
 * What a file was last written as: a page's files by the page's fragment (the page's document also shows
 * the site around it, but the app replaces that part as soon as it starts, so an edit re-renders only the
 * edited page), a file named by its contents by its name, other files by their contents. The not-found page has neither and is written with the
 * whole site only.
 */
function versionOf(file: SiteFile): string {
  if (file.page) return `${file.page.key}.${file.page.hash}`;
  // Named by its contents (the app's files, the search data, the manifest): the same name, the same file.
  if (file.reachedLater) return 'named';
  // (A file made when it is written is never compared: it is made on request, see `write`.)
  if ('data' in file && typeof file.data !== 'function') {
    const hash = createHash('sha256');
    const { data } = file;
    if (isTextInParts(data)) for (const part of data) hash.update(textBytes(part));
    else hash.update(data);
    return hash.digest('base64');
  }
  return '';
}

/** How long the data files of a deployment the site has left stay for the tabs still reading it. */
export const RETIRE_AFTER_MS = 60_000;

/** The version of a file whose write may have failed: never equal to a real one, so it is written again. */
const UNKNOWN = 'unknown';

/**
 * Hashed files an open tab may still ask for: never removed while the dev server runs. The search shards
 * are the exception: an update of the search data renames the shards it changed and removes their old
 * names, and a tab that asks for a shard that is gone switches to the new data, as it would after a
 * deployment. So are the data files of a deployment replaced a while ago (`ChangedFilesWriter.retiring`).
 */
const isKept = (file: string) =>
  file.startsWith('assets/') && !file.startsWith('assets/js/search/') && !isDeploymentData(file);

/**
 * `npm run dev`'s output folder, written in place while tabs read it: only the files of `siteFiles` that
 * changed since the last write, in an order that never lets a tab read a file before what it points to
 * (the data, then the pointer to the new manifest). A page's document, and a text made of every page's
 * (`llms-full.txt`), is written when it is asked for (`writeRequested`), not with the rest: a tab loads one
 * document and then reads the data files, and rendering every document or reading every page's markdown
 * of a large site at each save would only delay what the writer waits for.
 */
export class ChangedFilesWriter {
  /** Output path → its version when last written. */
  private readonly versions = new Map<string, string>();
  /** Files of the site as last written that are not on disk yet, or are there as an older version. */
  private readonly requested = new Map<string, OnRequest>();
  /** Files being written on request, so that two requests for one wait for the same write. */
  private readonly writing = new Map<string, Promise<void>>();
  /**
   * The data files (manifest, route shards, sidebar groups) of deployments the site has left, with when
   * it left each: removed by the first write `RETIRE_AFTER_MS` later. Every write is a deployment of its
   * own, and on a large site its data files are megabytes: kept all session, they filled the disk save by
   * save. A tab takes each new deployment as it is told of it; one that missed a minute of them finds a
   * file gone and switches to the new deployment, as after a real one.
   */
  private retiring: { file: string; left: number }[] = [];

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
      // A page's markdown, or a text of every page's: not made or read to be compared, but made when asked
      // for. (A fragment is read by the app, which never asks for a missing one: it is written with the rest.)
      const { data } = 'data' in file ? file : {};
      if (data && (typeof data === 'function' || (isTextInParts(data) && !file.path.startsWith('assets/')))) {
        this.requested.set(file.path, typeof data === 'function' ? data : () => Promise.resolve(data));
        this.versions.set(file.path, UNKNOWN);
        continue;
      }
      const version = versionOf(file);
      // A file read only once the pointer leads to it is the same file while its version is (its name is
      // its contents): written ahead (`writeAhead`), it is not written again, even with the whole site.
      if ((!all || file.reachedLater) && this.versions.get(file.path) === version) continue;
      this.versions.set(file.path, version);
      changed.push(file);
    }
    const last = (file: SiteFile) => (file.path === POINTER_FILE ? 1 : 0);
    try {
      await OutputFolder.fill(this.root, async (out) => {
        for (const stage of [0, 1]) {
          await out.settled();
          for (const file of changed.filter((f) => last(f) === stage)) {
            if ('copyOf' in file) await out.copy(file.copyOf, file.path);
            else if ('data' in file) await out.put(file.path, file.data);
            // The not-found page is read by the server for any missing path: it is always on disk.
            else if (file.path === NOT_FOUND_FILE) await out.put(file.path, this.withDevScript(await file.document()));
            else {
              const { document } = file;
              this.requested.set(file.path, async () => this.withDevScript(await document()));
            }
          }
        }
      });
    } catch (error) {
      // Which of them are on disk is unknown: the next write writes them all again.
      for (const file of changed) this.versions.set(file.path, UNKNOWN);
      throw error;
    }
    const now = Date.now();
    // A file back in the site (a save undone) is no longer retiring; one that left long enough ago goes.
    const retiring = this.retiring.filter(({ file }) => !present.has(file));
    const retired = retiring.filter(({ left }) => left <= now - RETIRE_AFTER_MS);
    this.retiring = retiring.filter(({ left }) => left > now - RETIRE_AFTER_MS);
    for (const file of [...this.versions.keys()]) {
      // A kept file stays on disk as it was written: its version still says so (a site written in between
      // without it, as the pages made ahead of the first page pass are, does not have it written again).
      if (present.has(file) || (isKept(file) && !this.requested.has(file))) continue;
      this.versions.delete(file);
      this.requested.delete(file);
      if (isDeploymentData(file)) this.retiring.push({ file, left: now });
      else if (!isKept(file)) await rm(path.join(this.root, file), { force: true });
    }
    for (const { file } of retired) await rm(path.join(this.root, file), { force: true });
    return changed;
  }

  /**
   * Writes `files` that changed, each read only once a pointer written later leads to it (`reachedLater`,
   * kept on disk: a page's fragment), ahead of the site they are part of: no tab reads them yet, and the
   * write of that site then skips them. A large site's fragments are most of its writing.
   */
  async writeAhead(files: Iterable<SiteFile>): Promise<void> {
    const ahead = [...files].filter(
      (file) => file.reachedLater && isKept(file.path) && this.versions.get(file.path) !== versionOf(file),
    );
    await OutputFolder.fill(this.root, async (out) => {
      for (const file of ahead) if ('data' in file) await out.put(file.path, file.data);
    });
    for (const file of ahead) if ('data' in file) this.versions.set(file.path, versionOf(file));
  }

  /** Writes the file at `file` (a path in the output) when the disk has an older one than the site last written. */
  async writeRequested(file: string): Promise<void> {
    const running = this.writing.get(file);
    if (running) return running;
    const make = this.requested.get(file);
    if (!make) return;
    this.requested.delete(file);
    const written = (async () => {
      const data = await make();
      await OutputFolder.fill(this.root, (out) => out.put(file, data));
    })();
    this.writing.set(file, written);
    try {
      await written;
    } catch (error) {
      // Asked for again, it is made again, unless a newer site has replaced it meanwhile.
      if (!this.requested.has(file)) this.requested.set(file, make);
      throw error;
    } finally {
      this.writing.delete(file);
    }
  }

  private withDevScript(document: DocumentParts): string {
    const html = document.map((part) => part.read()).join('');
    return this.devScript ? withScript(html, this.devScript) : html;
  }
}

/** A document with the script at `src` at the end of its head (`npm run dev`'s client). */
export function withScript(html: string, src: string): string {
  return html.replace('</head>', `<script src="${src}"></script>\n</head>`);
}
