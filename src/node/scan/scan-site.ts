import type { DiagnosticList } from '../diagnostics';
import { withApiReference, type GeneratedSources } from '../openapi/api-reference';
import type { UnmadeReference } from '../openapi/unmade-references';
import { lastCommitDates } from './page-history';
import { scanContent, type ContentFile } from './scan';
import { readSiteConfig, type SiteConfig } from './site-config';

/** What the scan stage reads of the content folder: its page files and its settings, once. */
export interface ScannedSite {
  contentDir: string;
  /** The page files, in the site's page order. */
  files: ContentFile[];
  config: SiteConfig;
  /** `_site.yaml` as written, to place its problems. */
  configText: string;
  /** Each file's last commit date, when the site shows it; git answers while the later stages run. */
  history: Promise<ReadonlyMap<string, string> | undefined>;
  /** The pages made from the OpenAPI documents `_site.yaml` names, by the file each was written to. */
  generated: GeneratedSources;
  /** The API references whose document has an error: links into them are not checked. */
  unmade: readonly UnmadeReference[];
}

export interface ScanOptions {
  /** The project's `src/`: generated pages are made again when the code that makes them changed. */
  srcDir: string;
  /** The build's cache folder, where generated pages are written for the page pass. */
  cacheDir: string;
}

/**
 * The scan stage: the page files and `_site.yaml`, read at once, and the pages of the OpenAPI documents
 * it names, which join the scanned files (openapi/api-reference.ts). Undefined when `_site.yaml` is wrong:
 * every page is analyzed with the settings, and with them wrong their problems would only echo it.
 */
export async function scanSite(
  contentDir: string,
  diagnostics: DiagnosticList,
  { srcDir, cacheDir }: ScanOptions,
): Promise<ScannedSite | undefined> {
  const [found, site] = await Promise.all([
    scanContent(contentDir, diagnostics),
    readSiteConfig(contentDir, diagnostics),
  ]);
  if (!site.valid) return undefined;
  const { configText } = site;
  const reference = await withApiReference(found, site.config, configText, {
    contentDir,
    srcDir,
    cacheDir,
    diagnostics,
  });
  const { files, config, sources: generated, unmade } = reference;
  const history = config.lastUpdated ? lastCommitDates(contentDir) : Promise.resolve(undefined);
  return { contentDir, files, config, configText, history, generated, unmade };
}
