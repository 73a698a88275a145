import path from 'node:path';
import { OutputFolder } from './output-folder';
import type { FolderUpdate } from './folder-update';
import { SEARCH_ENTRY_FILE, searchEntryKey } from './published-search';
import { fileKeys, fragmentFile, searchFilePath, siteFiles, type SiteFile, type SiteInput } from './site-files';
import type { DocumentRenderer } from './render-document';

/** A `dist/` being written beside `manifest/`: its search shards, once written, are `manifest/`'s too. */
export interface DistBeside {
  written: Promise<unknown>;
  /**
   * The file holding this build's bytes of a file of `dist/` (folder-update.ts, `fileOf`): until the
   * update commits, a changed file is not yet in its place, and what is there may be damaged.
   */
  fileOf: (relative: string) => string;
}

/**
 * `manifest/`: what the build knows, readable by a writer — pretty JSON and the pages' fragments. Given
 * the `dist/` being written beside it, its fragments and search shards are links to the same files there
 * once that is written, rather than written twice: a link costs the disk no new file.
 */
export async function writeManifestFolder(
  dir: string,
  input: Pick<SiteInput, 'manifest' | 'pages' | 'search' | 'versions'>,
  update?: FolderUpdate,
  dist?: DistBeside,
): Promise<void> {
  const { manifest, pages, search, versions } = input;
  const keys = fileKeys(versions);
  await OutputFolder.fill(
    dir,
    async (out) => {
      // Its hash covers all of it: the same hash, the same file, kept rather than made again.
      const pretty = async () => `${JSON.stringify(manifest, null, 2)}\n`;
      await out.put('manifest.json', pretty, { key: keys.key('manifest', manifest.hash) });
      // Keyed by the code that made it: a build lends its first results only from its own code's.
      const searchKey = versions ? searchEntryKey(search.entry, versions.texts) : undefined;
      await out.put(SEARCH_ENTRY_FILE, search.entry, { key: searchKey });
      if (dist) await dist.written;
      // Pages and shards are reached through manifest.json and search.json, which move into place after them.
      const reachedLater = true;
      const files = [
        ...pages.map((page) => ({
          name: path.join('pages', `${page.key}.html`),
          file: fragmentFile(page, keys.texts(page)),
        })),
        ...search.shards.map((shard) => ({
          name: shard.name,
          file: { path: searchFilePath(shard.name), data: shard.data, key: keys.named },
        })),
      ];
      for (const { name, file } of files) {
        const placing = { key: file.key, reachedLater };
        if (dist) await out.linkTo(dist.fileOf(file.path), name, placing);
        else await out.put(name, file.data, placing);
      }
    },
    update,
  );
}

export type DistInput = SiteInput;

/**
 * `dist/`: the deployable content of the base path, every file of `siteFiles`. As part of an `update`, a
 * file with a key unchanged since the previous build is kept as it is, not made.
 */
export async function writeDist(dir: string, input: DistInput, update?: FolderUpdate): Promise<void> {
  const { renderer, onProgress } = input;
  await writeFiles(
    dir,
    siteFiles(input),
    { ...(renderer ? { renderer } : {}), ...(onProgress ? { onProgress } : {}) },
    update,
  );
}

/** A file of the site with its place in the site's order: where it moves into place at commit. */
type OrderedFile = SiteFile & { order: number };
type OrderedDocument = Extract<OrderedFile, { document: unknown }>;

const isDocument = (file: OrderedFile): file is OrderedDocument => 'document' in file;

/**
 * Writes `files` into `dir` on two lanes at once: the documents, each rendered ahead of the one being
 * written (`renderingAhead`) as far as the `renderer` asks once it knows how many it renders, and every
 * other file. So a renderer on other threads renders the documents
 * while this thread writes the data, the fragments, the images and the twins, rather than the two taking
 * turns. Each lane has its own bound on writes in flight, so the documents never wait for room behind the
 * other files, and the renderer for the next documents. What a reader may meet is set by the order files
 * move into place, not the order they are written in: as part of an `update`, each file moves into place
 * in its place in `files` (the deployment pointer after the data it names and before any document,
 * site-files.ts), whichever lane wrote it when. Only the documents rendered ahead are held in memory.
 */
export async function writeFiles(
  dir: string,
  files: Iterable<SiteFile>,
  { renderer, onProgress }: { renderer?: Pick<DocumentRenderer, 'ready'>; onProgress?: (done: number) => void },
  update?: FolderUpdate,
): Promise<void> {
  const ordered = Array.from(files, (file, order): OrderedFile => ({ ...file, order }));
  const placing = ({ key, reachedLater, order }: OrderedFile) => ({ key, reachedLater, order });
  let stopped = false;
  /** Runs one lane to its end, or until the other fails: a failure stops both. */
  const lane = (write: (out: OutputFolder) => Promise<void>) =>
    OutputFolder.fill(
      dir,
      async (out) => {
        try {
          await write(out);
        } catch (error) {
          stopped = true;
          throw error;
        }
      },
      update,
    ).catch((error: unknown) => {
      stopped = true;
      throw error;
    });
  let written = 0;
  const lanes = await Promise.allSettled([
    lane(async (out) => {
      const keeps = (file: SiteFile) => out.keeps(file.path, file.key);
      const documents = ordered.filter(isDocument);
      // Counted by the ledger alone: a document it keeps but the disk does not is rendered all the same.
      const toRender = documents.filter((file) => !(file.key && update?.likelyKept(file.path, file.key))).length;
      const ahead = (await renderer?.ready(toRender)) ?? 0;
      for (const file of renderingAhead(documents, ahead, keeps)) {
        if (stopped) return;
        await out.put(file.path, file.document, placing(file));
        if (file.page) onProgress?.(++written);
      }
    }),
    lane(async (out) => {
      for (const file of ordered) {
        if (stopped) return;
        if ('copyOf' in file) await out.copy(file.copyOf, file.path, placing(file));
        else if ('data' in file) await out.put(file.path, file.data, placing(file));
      }
    }),
  ]);
  for (const result of lanes) if (result.status === 'rejected') throw result.reason;
}

/**
 * The files in their order, each document's render started as many documents before it is written as
 * `ahead` says, so that a renderer on other threads works while this one writes. A document the folder
 * `keeps` as it is is never rendered.
 */
export function* renderingAhead<File extends SiteFile>(
  files: Iterable<File>,
  ahead: number,
  keeps: (document: SiteFile) => boolean,
): Generator<File> {
  const queue: { file: File; started: boolean }[] = [];
  let started = 0;
  for (const file of files) {
    if ('document' in file && !keeps(file)) {
      const rendered = file.document();
      // Awaited as the file is written; a build that fails before then must not see it as unhandled.
      rendered.catch(() => undefined);
      queue.push({ file: { ...file, document: () => rendered }, started: true });
      started++;
    } else {
      queue.push({ file, started: false });
    }
    for (let next = queue[0]; next && (!next.started || started > ahead); next = queue[0]) {
      queue.shift();
      if (next.started) started--;
      yield next.file;
    }
  }
  for (const { file } of queue) yield file;
}
