import { availableParallelism } from 'node:os';
import type { DiagnosticList } from '../diagnostics';
import { CodeHighlighter, type BlockHighlighter, type HighlightCache } from '../markdown/highlight';
import { HighlightPool } from '../markdown/highlight-pool';
import { fragmentHash, loadPage, type PageSettings, type PageSource } from './page-source';
import type { ContentFile } from './scan';

export interface RenderPagesOptions {
  settings: PageSettings;
  /** Code blocks found here are not highlighted again; the ones this build used are recorded in it. */
  cache: HighlightCache;
  diagnostics: DiagnosticList;
  /** The project's `src/`, to bundle the highlight threads from. */
  srcDir: string;
  /** Highlight threads (0: highlight here); by default as many as the tree is large enough to pay for. */
  threads?: number;
  log?: (line: string) => void;
}

/**
 * A thread takes about a tenth of a second to start (its modules and its own shiki): below this many
 * pages the build highlights on its own thread.
 */
const MIN_PAGES_FOR_THREADS = 40;
/**
 * Pages per highlight thread. One thread keeps a second core busy while this one renders the markdown;
 * another pays only when there is code enough to keep both busy after that, because each also compiles
 * the grammars it is sent (measured: on this repository's 119 pages two threads were slower than one).
 */
const PAGES_PER_THREAD = 200;
/** More threads than this only add memory: each holds a shiki and its compiled grammars. */
const MAX_THREADS = 4;

export function defaultThreads(pages: number): number {
  const cores = availableParallelism();
  if (pages < MIN_PAGES_FOR_THREADS || cores < 2) return 0;
  return Math.min(cores, MAX_THREADS, Math.max(1, Math.floor(pages / PAGES_PER_THREAD)));
}

/**
 * Renders every page file, in the order given; files with errors are left out (their problems are
 * reported). Highlighting code is most of a cold build: on a large tree it runs on other threads while
 * this one renders the markdown, and the fragments get their code once it is done.
 */
export async function renderPages(files: ContentFile[], options: RenderPagesOptions): Promise<PageSource[]> {
  const threads = options.threads ?? defaultThreads(files.length);
  if (threads === 0) return renderWith(await CodeHighlighter.create(options.cache), files, options);
  const pool = await HighlightPool.start(options.srcDir, threads, options.cache);
  try {
    const pages = await renderWith(pool, files, options);
    await pool.finish();

    return pages.map((page) => {
      const html = pool.resolve(page.html);
      return { ...page, html, hash: fragmentHash(html) };
    });
  } finally {
    await pool.stop();
  }
}

async function renderWith(
  highlighter: BlockHighlighter,
  files: ContentFile[],
  options: RenderPagesOptions,
): Promise<PageSource[]> {
  const site = { ...options.settings, highlighter, diagnostics: options.diagnostics };
  const pages: PageSource[] = [];
  const progress = progressLog(files.length, options.log);
  // 64 files at a time, so reading one overlaps with rendering the others.
  for (let i = 0; i < files.length; i += 64) {
    const batch = await Promise.all(files.slice(i, i + 64).map((file) => loadPage(file, site)));
    for (const page of batch) if (page) pages.push(page);
    progress(Math.min(i + 64, files.length));
  }
  return pages;
}

/** "rendered 1000/2000 pages" every 500 pages of a large tree. */
function progressLog(total: number, log: ((line: string) => void) | undefined): (done: number) => void {
  let logged = 0;
  return (done) => {
    if (!log || total <= 300 || done - logged < 500) return;
    logged = done - (done % 500);
    log(`  rendered ${done}/${total} pages`);
  };
}
