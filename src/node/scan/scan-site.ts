import type { DiagnosticList } from '../diagnostics';
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
}

/**
 * The scan stage: the page files and `_site.yaml`, read at once. Undefined when `_site.yaml` is wrong:
 * every page is analyzed with the settings, and with them wrong their problems would only echo it. The
 * pages of the OpenAPI documents it names join the files after it (openapi/reference-site.ts).
 */
export async function scanSite(contentDir: string, diagnostics: DiagnosticList): Promise<ScannedSite | undefined> {
  const [files, site] = await Promise.all([
    scanContent(contentDir, diagnostics),
    readSiteConfig(contentDir, diagnostics),
  ]);
  if (!site.valid) return undefined;
  const { config, configText } = site;
  const history = config.lastUpdated ? lastCommitDates(contentDir) : Promise.resolve(undefined);
  return { contentDir, files, config, configText, history };
}
