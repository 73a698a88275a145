import type { DiagnosticList } from '../diagnostics';
import type { ScannedSite } from '../scan/scan-site';
import { withApiReference, type GeneratedSources } from './api-reference';
import type { UnmadeReference } from './unmade-references';

/** The scanned site with the pages of its API reference among its files. */
export interface ReferencedSite extends ScannedSite {
  /** The pages made from the OpenAPI documents `_site.yaml` names, by the file each was written to. */
  generated: GeneratedSources;
  /** The API references whose document has an error: links into them are not checked. */
  unmade: readonly UnmadeReference[];
}

export interface ReferenceOptions {
  /** The project's `src/`: generated pages are made again when the code that makes them changed. */
  srcDir: string;
  /** The build's cache folder, where generated pages are written for the page pass. */
  cacheDir: string;
}

/**
 * The pages of the OpenAPI documents `_site.yaml` names, joined to the scanned files (api-reference.ts):
 * from here on they are pages like the writers' own.
 */
export async function withReferencePages(
  scanned: ScannedSite,
  diagnostics: DiagnosticList,
  { srcDir, cacheDir }: ReferenceOptions,
): Promise<ReferencedSite> {
  const { contentDir } = scanned;
  const options = { contentDir, srcDir, cacheDir, diagnostics };
  const reference = await withApiReference(scanned.files, scanned.config, scanned.configText, options);
  return {
    ...scanned,
    files: reference.files,
    config: reference.config,
    generated: reference.sources,
    unmade: reference.unmade,
  };
}
