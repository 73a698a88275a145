/**
 * The build's stages as the commands run them: `build` once, `npm run dev` once when it starts and again,
 * for what changed, after each save. The one place the stages are put together; dev/ takes everything it
 * runs of the build from here, never from a stage module.
 */
import type { Manifest } from '../shared/types';
import { analyzeOneFile, analyzeSite, type AnalyzedSite, type AnalyzeOptions } from './analyze/analyze-site';
import type { CompletePage, PageRecord } from './analyze/page-record';
import type { TextStore } from './analyze/text-store';
import type { Diagnostic, DiagnosticList } from './diagnostics';
import { inSourceDocuments } from './openapi/api-reference';
import { withReferencePages, type ReferencedSite, type ReferenceOptions } from './openapi/reference-site';
import type { ClientAssets } from './output/bundle';
import { siteOutput } from './output/output-site';
import type { BrowserData } from './output/browser-data';
import type { RenderRoute } from './output/render-document';
import { siteFiles, type SiteFile } from './output/site-files';
import type { PageHighlighter } from './highlight/page-highlighter';
import { pageRecords } from './site/page-records';
import type { ContentFile } from './scan/scan';
import { scanSite } from './scan/scan-site';
import type { SiteConfig } from './scan/site-config';
import { assembleSite, type Site } from './site/assemble';
import type { VersionsAround } from './site/version-links';
import type { SearchFiles } from './site/search-files';

export { stylesOf, type CompletePage, type PageRecord } from './analyze/page-record';
export { TextStore } from './analyze/text-store';
export { BuildCacheIndex } from './analyze/render-cache';
export type { BrowserData } from './output/browser-data';
export { appBundles, type AppBundles } from './output/app-bundles';
export { ChangedFilesWriter, withScript } from './output/changed-files';
export { siteCss, type ClientAssets } from './output/bundle';
export { fragmentFile, pointerOf, type SiteFile } from './output/site-files';
export type { RenderRoute } from './output/render-document';
export { PageHighlighter } from './highlight/page-highlighter';
export { isPageFile, type ContentFile } from './scan/scan';
export { SITE_CONFIG_FILE, type SiteConfig } from './scan/site-config';
export { buildSearchFiles, type SearchFiles } from './site/search-files';
export type { ReferencedSite } from './openapi/reference-site';
export type { Site } from './site/assemble';

/**
 * The scan stage and the pages of the API reference: the page files, `_site.yaml` (through `settings`,
 * for a version built with the site) and the pages made of the OpenAPI documents it names. Undefined when
 * `_site.yaml` is wrong (its problems are in `diagnostics`).
 */
export async function readSite(
  contentDir: string,
  diagnostics: DiagnosticList,
  options: ReferenceOptions & { settings?: (config: SiteConfig) => SiteConfig },
): Promise<ReferencedSite | undefined> {
  const read = await scanSite(contentDir, diagnostics);
  if (!read) return undefined;
  const config = options.settings ? options.settings(read.config) : read.config;
  return withReferencePages({ ...read, config }, diagnostics, options);
}

/** The analyze stage: every page of the site made, those the render cache holds taken from it, on threads when many. */
export function makePages(scanned: ReferencedSite, options: AnalyzeOptions): Promise<AnalyzedSite> {
  return analyzeSite(scanned, options);
}

/** What one page is made with: the highlighter and the text store of the build or the dev session. */
export interface PageTools {
  highlighter: PageHighlighter;
  texts: TextStore;
  strict: boolean;
}

/** One page file made again, as the analyze stage makes each (its problems apart): for `npm run dev`'s edits. */
export function makePage(file: ContentFile, config: SiteConfig, tools: PageTools): ReturnType<typeof analyzeOneFile> {
  const { highlighter, texts, strict } = tools;
  return analyzeOneFile(file, config, strict, { highlighter, texts });
}

/**
 * The site stage: the pages put together (keys, links checked, sidebar, redirects) and each given its
 * record. `versions` are the other versions built with this one, whose pages a link may lead into.
 */
export function siteOf(
  pages: readonly CompletePage[],
  scanned: ReferencedSite,
  strict: boolean,
  diagnostics: DiagnosticList,
  versions?: VersionsAround,
): Site<PageRecord> {
  const { config, configText, unmade } = scanned;
  const site = assembleSite([...pages], config, configText, strict, diagnostics, unmade, versions);
  return pageRecords(site);
}

/** The problems as the writer reads them: those of a page made from an OpenAPI document in the document. */
export function reported(diagnostics: DiagnosticList, scanned: ReferencedSite | undefined): Diagnostic[] {
  return inSourceDocuments(diagnostics, scanned?.generated ?? new Map());
}

/** What the output stage writes for a site, as files to write where they changed (`npm run dev`'s output). */
export function outputFiles(input: {
  config: SiteConfig;
  site: Site<PageRecord>;
  search: SearchFiles;
  client: ClientAssets;
  css: { name: string; css: Uint8Array };
  renderRoute: RenderRoute;
  /** Each file's last commit date, when the site shows it (`ReferencedSite.history`). */
  history?: ReadonlyMap<string, string>;
  /** What the last call gave of the site's data: its unchanged route shards are kept. */
  previous?: BrowserData;
}): { manifest: Manifest; browserData: BrowserData; files: Iterable<SiteFile> } {
  const { site, search, client, css, renderRoute } = input;
  const { manifest, browserData } = siteOutput(input.config, site, search, client, input.history, input.previous);
  const files = siteFiles({ manifest, browserData, search, pages: site.pages, client, css, renderRoute });
  return { manifest, browserData, files };
}
