import type { Diagnostic, DiagnosticList } from '../diagnostics';
import type { ContentFile } from '../scan/scan';
import type { ScannedSite } from '../scan/scan-site';
import type { SiteConfig } from '../scan/site-config';
import { analyzeFile } from './analyze-file';
import { analyzePages } from './analyze-pages';
import type { BuildHighlighting } from './markdown/code-blocks';
import type { CompletePage } from './page-record';
import type { PageSettings } from './page-source';
import { renderIdentity } from './cache-index';
import { heldSearch } from './stored-search';
import { BuildCacheIndex, RenderCache, type AheadPage, type RenderedPage } from './render-cache';
import type { TextStore } from './text-store';
import { BASE_PLACEHOLDER, withBase } from './page-place';
import { digestOfAll } from '../content-hash';

export interface AnalyzeOptions {
  /** The project's `src/`, part of the render cache's identity. */
  srcDir: string;
  strict: boolean;
  /** What code blocks are highlighted with; it keeps those of the pages reused from the render cache too. */
  highlighter: BuildHighlighting;
  /** Where the pages' texts wait; the render cache is in its folder (the one every version shares). */
  texts: TextStore;
  diagnostics: DiagnosticList;
  /** Page-analysis threads (0: none); by default as many as the pages to analyze are enough to pay for. */
  analyzeThreads?: number;
  log?: (line: string) => void;
  /** Ends the page pass before its next file. */
  signal?: AbortSignal;
  /** Page files of the versions built after this site, made in its pass for their builds (versions/pages-ahead.ts). */
  ahead?: readonly ContentFile[];
  /** The render cache's index as the build reads it for all its sites (its versions); by default this site's own. */
  cacheIndex?: BuildCacheIndex;
}

/** What the analyze stage hands on. */
export interface AnalyzedSite {
  /** Every page in the scan's order: made by the page pass, or from the render cache. */
  pages: CompletePage[];
  /** The pages the page pass made (base-free), with their code blocks' keys, for the render cache. */
  made: RenderedPage[];
  /** The page files the page pass analyzed (those for later versions too); the others came from the render cache. */
  analyzed: number;
  /** The problems the page pass reported, which the render cache keeps with the pages. */
  problems: Diagnostic[];
  /** The pages made for later versions (`AnalyzeOptions.ahead`), for the render cache only. */
  ahead: AheadPage[];
  cache: RenderCache;
  /** What the pages were made with (`renderIdentity` and the settings): the texts' version in the output ledger. */
  identity: string;
}

/**
 * The analyze stage: every page file the render cache cannot vouch for made into a finished page (one lex:
 * its headings, links and code, highlighted as it is found); the pages the cache holds come from it, with
 * the problems they had.
 */
export async function analyzeSite(scanned: ScannedSite, options: AnalyzeOptions): Promise<AnalyzedSite> {
  const { files, config } = scanned;
  const { highlighter, diagnostics, log } = options;
  const settings = baseFreeSettings(config, options.strict);
  const cacheIdentity = renderIdentity(options.srcDir);
  const cache = await RenderCache.open(
    options.texts,
    cacheIdentity,
    settings,
    options.cacheIndex ?? new BuildCacheIndex(),
  );
  const identity = digestOfAll([cacheIdentity, JSON.stringify(pageSettingsOf(config, options.strict))]);
  const reuse = cache.reuse(files);
  highlighter.keep(reuse.code);
  // Made by an earlier build, or by this build's first version for this one (versions/pages-ahead.ts).
  if (reuse.reused.length > 0)
    log?.(`${reuse.reused.length} of ${files.length} pages made already, from the render cache`);
  diagnostics.items.push(...reuse.problems);
  const problemsBefore = diagnostics.items.length;
  const texts = options.texts;
  const { analyzeThreads: threads, signal } = options;
  // Those the cache holds already are left to their own builds to find.
  const ahead = { files: options.ahead ? cache.reuse(options.ahead).render : [], made: [] };
  const made = await analyzePages(reuse.render, {
    ...{ settings, highlighter, texts, search: cache.searchSink(), diagnostics, threads, log, signal },
    ...(ahead.files.length > 0 ? { ahead } : {}),
  });
  const problems = diagnostics.items.slice(problemsBefore);
  const pages = inScanOrder(
    files,
    reuse.reused,
    made.map(({ page }) => page),
  ).map((page) => withBase(page, config.base));
  const analyzed = reuse.render.length + ahead.files.length;
  return { pages, made, analyzed, problems, ahead: ahead.made, cache, identity };
}

/**
 * What a page is made with of the site's settings, but the base: pages are made base-free and given the
 * site's base as they are read (`withBase`), so that one made page serves every version.
 */
function baseFreeSettings(config: SiteConfig, strict: boolean): PageSettings {
  return { ...pageSettingsOf(config, strict), base: BASE_PLACEHOLDER };
}

/** One page file made as the page pass makes each (`npm run dev`'s saves): base-free, then given the base. */
export async function analyzeOneFile(
  file: ContentFile,
  config: SiteConfig,
  strict: boolean,
  tools: Pick<AnalyzeOptions, 'highlighter' | 'texts'>,
): Promise<{ page: CompletePage | undefined; problems: Diagnostic[] }> {
  const making = { ...baseFreeSettings(config, strict), ...tools, search: heldSearch };
  const { page, problems } = await analyzeFile(file, making, strict);
  return { page: page && withBase(page, config.base), problems };
}

/** What a page is made with of the site's settings. */
export function pageSettingsOf(config: SiteConfig, strict: boolean): PageSettings {
  const { base, constants, embeds, lineNumbers } = config;
  return { base, constants, strict, embeds, lineNumbers };
}

/** The pages of the scan, reused or analyzed, in the scan's order (which is the site's page order). */
function inScanOrder(files: readonly { relativePath: string }[], ...lists: CompletePage[][]): CompletePage[] {
  const byFile = new Map(lists.flat().map((page) => [page.file.relativePath, page]));
  return files.flatMap((file) => byFile.get(file.relativePath) ?? []);
}
