import path from 'node:path';
import { OutputFolder } from './output-folder';
import type { FolderUpdate } from './folder-update';
import { fileKeys, searchFilePath, siteFiles, type SiteFile, type SiteInput } from './site-files';

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
 * `manifest/`: what the build knows, readable by a writer — pretty JSON and plain fragments. Given the
 * `dist/` being written beside it, its search shards are linked from there once that is written, rather
 * than written twice.
 */
export async function writeManifestFolder(
  dir: string,
  input: Pick<SiteInput, 'manifest' | 'pages' | 'search' | 'versions'>,
  update?: FolderUpdate,
  dist?: DistBeside,
): Promise<void> {
  const { manifest, pages, search, versions } = input;
  await OutputFolder.fill(
    dir,
    async (out) => {
      await out.put('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
      await out.put('search.json', search.entry);
      const keys = fileKeys(versions);
      // Pages and shards are reached through manifest.json and search.json, which move into place after them.
      for (const page of pages) {
        await out.put(path.join('pages', `${page.key}.html`), [page.html], keys.texts(page), true);
      }
      if (dist) await dist.written;
      for (const shard of search.shards) {
        if (dist) await out.linkTo(dist.fileOf(searchFilePath(shard.name)), shard.name, keys.named, true);
        else await out.put(shard.name, shard.data, keys.named, true);
      }
    },
    update,
  );
}

export type { RenderRoute } from './site-files';

export type DistInput = SiteInput;

/**
 * `dist/`: the deployable content of the base path, every file of `siteFiles`. As part of an `update`, a
 * file with a key unchanged since the previous build is kept as it is, not made.
 */
export async function writeDist(dir: string, input: DistInput, update?: FolderUpdate): Promise<void> {
  let documents = 0;
  await OutputFolder.fill(
    dir,
    async (out) => {
      const keeps = (file: SiteFile) => out.keeps(file.path, file.key);
      for (const file of renderingAhead(siteFiles(input), input.renderAhead ?? 0, keeps)) {
        const { key, reachedLater } = file;
        if ('copyOf' in file) await out.copy(file.copyOf, file.path, key, reachedLater);
        else await out.put(file.path, 'data' in file ? file.data : file.document, key, reachedLater);
        if ('document' in file && file.page) input.onProgress?.(++documents);
      }
    },
    update,
  );
}

/**
 * The files in their order, each document's render started as many documents before it is written as
 * `ahead` says, so that a renderer on other threads works while this one writes. A document the folder
 * `keeps` as it is is never rendered.
 */
export function* renderingAhead(
  files: Iterable<SiteFile>,
  ahead: number,
  keeps: (document: SiteFile) => boolean,
): Generator<SiteFile> {
  const queue: { file: SiteFile; started: boolean }[] = [];
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
