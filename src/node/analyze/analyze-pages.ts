import type { DiagnosticList } from '../diagnostics';
import type { BlockHighlighter } from './markdown/code-blocks';
import { progressLog } from '../progress';
import type { PageDraft } from './page-record';
import { loadPage, type PageSettings } from './page-source';
import type { ContentFile } from '../scan/scan';
import type { TextStore } from './text-store';

export interface AnalyzePagesOptions {
  settings: PageSettings;
  /** Where each page's code blocks go: their HTML, or a marker a later stage fills in. */
  highlighter: BlockHighlighter;
  /** Where the pages' fragments and markdown go. */
  texts: TextStore;
  diagnostics: DiagnosticList;
  log?: (line: string) => void;
}

/**
 * The page pass: renders every page file, in the order given; files with errors are left out (their
 * problems are reported).
 */
export async function analyzePages(files: ContentFile[], options: AnalyzePagesOptions): Promise<PageDraft[]> {
  const { highlighter, texts, diagnostics } = options;
  const site = { ...options.settings, highlighter, texts, diagnostics };
  const pages: PageDraft[] = [];
  const progress = progressLog('rendered', files.length, options.log);
  // 64 files at a time, so reading one overlaps with rendering the others.
  for (let i = 0; i < files.length; i += 64) {
    const batch = await Promise.all(files.slice(i, i + 64).map((file) => loadPage(file, site)));
    for (const page of batch) if (page) pages.push(page);
    progress(Math.min(i + 64, files.length));
  }
  return pages;
}
