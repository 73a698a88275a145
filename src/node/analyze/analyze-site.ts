import path from 'node:path';
import type { Diagnostic, DiagnosticList } from '../diagnostics';
import type { ScannedSite } from '../scan/scan-site';
import { analyzePages } from './analyze-pages';
import type { BlockSink } from './markdown/code-blocks';
import type { AnalyzedPage } from './page-record';
import type { PageSettings } from './page-source';
import { RenderCache, renderIdentity } from './render-cache';
import type { TextStore } from './text-store';

export interface AnalyzeOptions {
  /** The project's `src/`, part of the render cache's identity. */
  srcDir: string;
  /** The build's cache folder: the render cache is in its `pages/`. */
  cacheDir: string;
  strict: boolean;
  /** Where each code block goes; closed once the page pass has found them all. */
  highlighter: BlockSink;
  texts: TextStore;
  diagnostics: DiagnosticList;
  /** Page-analysis threads (0: none); by default as many as the pages to analyze are enough to pay for. */
  analyzeThreads?: number;
  log?: (line: string) => void;
}

/** What the analyze stage hands on. */
export interface AnalyzedSite {
  /** Every page in the scan's order: a draft of the page pass, or a complete page from the render cache. */
  pages: AnalyzedPage[];
  /** The page files the page pass analyzed; the others came from the render cache. */
  analyzed: number;
  /** The code blocks' keys of the pages reused from the render cache, which the highlight cache keeps. */
  reusedCode: string[];
  /** The problems the page pass reported, which the render cache keeps with the pages. */
  problems: Diagnostic[];
  cache: RenderCache;
  /** What the pages were rendered with (`renderIdentity`): the texts' version in the output ledger. */
  identity: string;
}

/**
 * The analyze stage: one lex of every page file the render cache cannot vouch for (its headings, links
 * and code blocks, which go to the highlighter as they are found); the pages the cache holds come from
 * it, with the problems they had.
 */
export async function analyzeSite(scanned: ScannedSite, options: AnalyzeOptions): Promise<AnalyzedSite> {
  const { files, config } = scanned;
  const { highlighter, diagnostics, log } = options;
  const settings: PageSettings = {
    base: config.base,
    constants: config.constants,
    strict: options.strict,
    embeds: config.embeds,
    lineNumbers: config.lineNumbers,
  };
  const identity = renderIdentity(options.srcDir, scanned.contentDir, settings);
  const cache = await RenderCache.open(path.join(options.cacheDir, 'pages'), identity);
  try {
    const reuse = cache.reuse(files);
    if (reuse.reused.length > 0)
      log?.(`${reuse.reused.length} of ${files.length} pages unchanged since the last build`);
    diagnostics.items.push(...reuse.problems);
    const problemsBefore = diagnostics.items.length;
    const texts = options.texts;
    const threads = options.analyzeThreads;
    const drafts = await analyzePages(reuse.render, {
      settings,
      highlighter,
      texts,
      diagnostics,
      threads,
      log,
    }).finally(() => highlighter.close());
    const problems = diagnostics.items.slice(problemsBefore);
    const pages = inScanOrder(files, reuse.reused, drafts);
    return { pages, analyzed: reuse.render.length, reusedCode: reuse.code, problems, cache, identity };
  } catch (error) {
    cache.close();
    throw error;
  }
}

/** The pages of the scan, reused or analyzed, in the scan's order (which is the site's page order). */
function inScanOrder(files: readonly { relativePath: string }[], ...lists: AnalyzedPage[][]): AnalyzedPage[] {
  const byFile = new Map(lists.flat().map((page) => [page.file.relativePath, page]));
  return files.flatMap((file) => byFile.get(file.relativePath) ?? []);
}
