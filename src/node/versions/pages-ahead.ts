import path from 'node:path';
import { pageSettingsOf } from '../analyze/analyze-site';
import { DiagnosticList } from '../diagnostics';
import { isPageFile, type ContentFile } from '../scan/scan';
import { readSiteConfig, type SiteConfig } from '../scan/site-config';
import type { FolderFile } from './version-mark';

/** A version's content folder as the versions layer knows it before building it: its files, and its settings once read. */
export interface VersionFolder {
  contentDir: string;
  files: readonly FolderFile[];
  /** Its own `_site.yaml`, or the current site's settings, already read. */
  config?: SiteConfig;
}

/**
 * The page files of the versions built after `first` that its page pass can make for them: those whose
 * size differs from its own file at the same path, or that it has none of, in a version whose pages are
 * made with the same settings (constants, embeds, line numbers). Made in its pass (on its page threads,
 * when it has them), they wait in the render cache every version shares, where those versions' builds
 * find them; otherwise each later version makes its changed pages on the build's own thread, after the
 * threads of the first version's pass have ended. A file of the same size that differs is made by its own
 * version, as before. One file for each path and size: the same change is seldom made twice.
 */
export async function pagesAhead(first: VersionFolder, later: readonly VersionFolder[]): Promise<ContentFile[]> {
  const settingsOf = async (folder: VersionFolder) => pageSettingsKey(folder.config ?? (await ownConfig(folder)));
  const settings = await settingsOf(first);
  if (settings === undefined) return [];
  const seen = new Map(first.files.filter(isPage).map((file) => [file.relative, file.size]));
  const ahead: ContentFile[] = [];
  const taken = new Set<string>();
  for (const folder of later) {
    if ((await settingsOf(folder)) !== settings) continue;
    for (const file of folder.files.filter(isPage)) {
      const key = `${file.relative}\0${file.size}`;
      if (seen.get(file.relative) === file.size || taken.has(key)) continue;
      taken.add(key);
      ahead.push({ absolutePath: path.join(folder.contentDir, file.relative), relativePath: file.relative });
    }
  }
  return ahead;
}

const isPage = (file: FolderFile) => isPageFile(file.relative);

/** A version's own settings; undefined when its `_site.yaml` has problems (its build reports them). */
async function ownConfig(folder: VersionFolder): Promise<SiteConfig | undefined> {
  const read = await readSiteConfig(folder.contentDir, new DiagnosticList());
  return read.valid ? read.config : undefined;
}

/**
 * What of a site's settings its pages are made with (`pageSettingsOf`), but the base (pages are made
 * base-free) and the strictness (a page's problems are kept with it, and its own version reports them).
 */
function pageSettingsKey(config: SiteConfig | undefined): string | undefined {
  if (!config) return undefined;
  const { base: _base, strict: _strict, ...made } = pageSettingsOf(config, true);
  return JSON.stringify(made);
}
