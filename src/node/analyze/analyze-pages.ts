import type { DiagnosticList } from '../diagnostics';
import type { BuildHighlighting } from './markdown/code-blocks';
import { progressLog } from '../progress';
import type { AheadPage, RenderedPage } from './render-cache';
import type { PageSettings } from './page-source';
import type { ContentFile } from '../scan/scan';
import type { TextStore } from './text-store';
import type { SearchSink } from './stored-search';
import { analyzeFile, type AnalyzedFile } from './analyze-file';
import { pagePassShare, startAnalyzeThreads } from './analyze-threads';

export interface AnalyzePagesOptions {
  settings: PageSettings;
  /** What each page's code blocks are highlighted with, on this thread (the page threads have their own). */
  highlighter: BuildHighlighting;
  /** Where the pages' fragments and markdown go. */
  texts: TextStore;
  /** Where their search terms go (the render cache's `searchSink`). */
  search: SearchSink;
  diagnostics: DiagnosticList;
  /** Page-analysis threads (0: this thread only); by default as many as the pass is large enough to pay for. */
  threads?: number;
  log?: (line: string) => void;
  /** Ends the pass before its next file (`npm run dev` stopped while its first pass runs). */
  signal?: AbortSignal;
  /**
   * Page files of other sites made after this one's, for the render cache they share (versions/pages-ahead.ts):
   * not pages of this site, their problems not its own. Those made go to `made`.
   */
  ahead?: { files: readonly ContentFile[]; made: AheadPage[] };
}

/** Files this thread reads at once when it analyzes alone, so reading one overlaps with rendering the others. */
const FILES_AT_ONCE = 64;
/** The same beside page threads: few, so that this thread never holds files a thread waits for at the end. */
const FILES_AT_ONCE_BESIDE_THREADS = 2;
/**
 * With threads, the files each has been sent and not yet answered: enough that it never waits for the next
 * while this thread stores what another sent back. On a large site this thread then makes no pages of
 * its own (`pagePassShare`).
 */
const FILES_PER_THREAD = 16;

/**
 * The page pass: makes every page file into a finished page, on this thread, or for a large site on page
 * threads, each taking the next file as it is done with one. Files with errors are left out (their
 * problems are reported). The pages, with their code blocks' keys, and the problems come in the order of
 * the files, whichever thread had them.
 */
export async function analyzePages(own: ContentFile[], options: AnalyzePagesOptions): Promise<RenderedPage[]> {
  const { settings, highlighter, texts, search, diagnostics } = options;
  const files = [...own, ...(options.ahead?.files ?? [])];
  const share = options.threads === undefined ? pagePassShare(files.length, highlighter.cold) : undefined;
  const count = options.threads ?? share?.threads ?? 0;
  const workerData = async () => ({
    settings,
    strict: diagnostics.strict,
    highlighting: await highlighter.forThreads(),
  });
  const threads =
    count > 0 ? await startAnalyzeThreads(count, workerData(), highlighter, { texts, search }) : undefined;
  const analyzed: (AnalyzedFile | undefined)[] = [];
  const progress = progressLog('rendered', files.length, options.log);
  let next = 0;
  let done = 0;
  const lane = async (analyze: (file: ContentFile) => Promise<AnalyzedFile>) => {
    for (let i = next++; i < files.length; i = next++) {
      try {
        options.signal?.throwIfAborted();
        analyzed[i] = await analyze(files[i] as ContentFile);
      } catch (error) {
        // A file made for another site fails nothing here: that site's own build makes it, or says why.
        if (i >= own.length && !options.signal?.aborted) continue;
        // The first fault fails the pass: no lane takes another file.
        next = files.length;
        throw error;
      }
      progress(++done);
    }
  };
  try {
    const here = (file: ContentFile) =>
      analyzeFile(file, { ...settings, highlighter, texts, search }, diagnostics.strict);
    const lanes = threads
      ? [
          ...Array<typeof here>(threads.count * FILES_PER_THREAD).fill((file) => threads.analyze(file)),
          ...Array<typeof here>(share?.here ? FILES_AT_ONCE_BESIDE_THREADS : 0).fill(here),
        ]
      : Array<typeof here>(FILES_AT_ONCE).fill(here);
    await Promise.all(lanes.map(lane));
  } finally {
    // The threads end with the pass: their memory is the build's until then.
    await threads?.stop();
  }
  const pages: RenderedPage[] = [];
  for (const [i, file] of analyzed.entries()) {
    if (!file) continue;
    const { page, problems, code } = file;
    if (i >= own.length) {
      if (page) options.ahead?.made.push({ page, code, problems });
      continue;
    }
    diagnostics.items.push(...problems);
    if (page) pages.push({ page, code });
  }
  return pages;
}
