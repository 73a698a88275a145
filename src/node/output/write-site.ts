import path from 'node:path';
import type { Manifest } from '../../shared/types';
import type { PageSource } from '../content/page-record';
import type { SearchFiles } from '../site/search-files';
import { OutputFolder } from './output-folder';
import { siteFiles, type SiteInput } from './site-files';

/** `manifest/`: what the build knows, readable by a writer — pretty JSON and plain fragments. */
export async function writeManifestFolder(
  dir: string,
  manifest: Manifest,
  pages: PageSource[],
  search: SearchFiles,
): Promise<void> {
  await OutputFolder.fill(dir, async (out) => {
    await out.put('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    await out.put('search.json', search.entry);
    for (const shard of search.shards) await out.put(shard.name, shard.data);
    for (const page of pages) await out.put(path.join('pages', `${page.key}.html`), page.html.read());
  });
}

export type { RenderRoute } from './site-files';

export type DistInput = SiteInput;

/** `dist/`: the deployable content of the base path, every file of `siteFiles`, into a fresh folder. */
export async function writeDist(dir: string, input: DistInput): Promise<void> {
  await OutputFolder.fill(dir, async (out) => {
    for (const file of siteFiles(input)) {
      if ('copyOf' in file) await out.copy(file.copyOf, file.path);
      else await out.put(file.path, 'data' in file ? file.data : await file.document());
    }
  });
}
