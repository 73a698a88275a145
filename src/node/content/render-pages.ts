import { availableParallelism } from 'node:os';
import type { DiagnosticList } from '../diagnostics';
import type { HighlightCache } from '../highlight/cache';
import { CodeHighlighter, type BlockHighlighter } from '../highlight/code-highlighter';
import { HighlightPool } from '../markdown/highlight-pool';
import { contentHash } from '../content-hash';
import { progressLog } from '../progress';
import { loadPage, type PageSettings, type PageSource } from './page-source';
import type { ContentFile } from './scan';

export interface HighlightingOptions {
  /** Code blocks found here are not highlighted again; the ones this build used are recorded in it. */
  cache: HighlightCache;
  /** The project's `src/`, to bundle the highlight threads from. */
  srcDir: string;
  /** Highlight threads (0: highlight here); by default as many as the tree is large enough to pay for. */
  threads?: number;
}

export interface RenderPagesOptions {
  settings: PageSettings;
  diagnostics: DiagnosticList;
  log?: (line: string) => void;
}

/**
 * A thread takes about a tenth of a second to start (its modules and its own shiki): below this many
 * pages the build highlights on its own thread.
 */
const MIN_PAGES_FOR_THREADS = 40;
/** More threads than this only add memory: each holds a shiki and its compiled grammars. */
const MAX_THREADS = 4;

export function defaultThreads(pages: number): number {
  const cores = availableParallelism();
  if (pages < MIN_PAGES_FOR_THREADS || cores < 2) return 0;
  return Math.min(cores, MAX_THREADS);
}

/** What highlights the pages' code: this thread, or threads started ahead of the rendering. */
export interface Highlighting {
  highlighter: BlockHighlighter;
  /** The highlight threads, if any: `renderPages` ends them; a caller that never gets there calls `stop`. */
  pool?: HighlightPool;
}

/**
 * Starts highlighting for a tree of this many pages. A thread takes a while to start (its script is
 * bundled, then it loads shiki), so on a cold build the build starts them as soon as it knows how many
 * pages there are, before anything else competes for the cores; with a cache, at the first block it
 * lacks.
 */
export async function startHighlighting(pages: number, options: HighlightingOptions): Promise<Highlighting> {
  const threads = options.threads ?? defaultThreads(pages);
  if (threads === 0) return { highlighter: await CodeHighlighter.create(options.cache) };
  // This thread renders the markdown meanwhile, so one core fewer highlights until the pages are done.
  const whileRendering = Math.max(1, Math.min(threads, availableParallelism() - 1));
  // An empty cache means a cold build, whose every block needs a thread: they start now, not at the first.
  const eager = options.cache.size === 0;
  const pool = HighlightPool.create(options.srcDir, whileRendering, threads, options.cache, eager);
  return { highlighter: pool, pool };
}

/** Rendered pages, and when their code blocks are in place. */
export interface RenderedPages {
  pages: PageSource[];
  /**
   * Resolves once every page's fragment holds its highlighted code (and its hash is final): the pages
   * above are filled in where they are. Until then their records and search text are complete, their
   * fragments not. Must be awaited, also when the build stops early: it ends the highlight threads.
   */
  highlighted: Promise<void>;
  /**
   * Text made from these pages before `highlighted` resolved (a prerendered page, say), completed: each
   * code block's marker replaced by its HTML. Only meaningful once `highlighted` has resolved.
   */
  complete(text: string): string;
  /**
   * True when the highlighting leaves a core to this thread until `highlighted` resolves: work that
   * needs only the pages as they are now can run meanwhile without slowing the highlighting down.
   */
  coreToSpare: boolean;
  /** Stops highlighting what is left, for a build that will not use it: `highlighted` then rejects. */
  cancel(): void;
}

/**
 * Renders every page file, in the order given; files with errors are left out (their problems are
 * reported). Highlighting code is most of a cold build: on a large tree it runs on other threads while
 * this one renders the markdown, and what needs only the records (site checks, the search index) can run
 * before the code is in place.
 */
export async function renderPages(
  files: ContentFile[],
  highlighting: Highlighting,
  options: RenderPagesOptions,
): Promise<RenderedPages> {
  const { pool } = highlighting;
  if (!pool) {
    const pages = await renderWith(highlighting.highlighter, files, options);
    return {
      pages,
      highlighted: Promise.resolve(),
      complete: (text) => text,
      coreToSpare: false,
      cancel: () => undefined,
    };
  }
  let pages: PageSource[];
  try {
    pages = await renderWith(pool, files, options);
  } catch (error) {
    await pool.stop();
    throw error;
  }
  // Any thread still starting is running first, so `finish` adds the threads it will at once and the
  // count below is final.
  await pool.ready();
  const highlighted = (async () => {
    try {
      await pool.finish();
      for (const page of pages) {
        page.html = pool.resolve(page.html);
        page.hash = contentHash(page.html);
      }
    } finally {
      await pool.stop();
    }
  })();
  // Awaited by the caller; this keeps a failure from being reported as unhandled before then.
  highlighted.catch(() => undefined);
  return {
    pages,
    highlighted,
    complete: (text) => pool.resolve(text),
    // `finish` above has already started every thread it is going to.
    coreToSpare: pool.threadCount < availableParallelism(),
    cancel: () => pool.cancel(),
  };
}

async function renderWith(
  highlighter: BlockHighlighter,
  files: ContentFile[],
  options: RenderPagesOptions,
): Promise<PageSource[]> {
  const site = { ...options.settings, highlighter, diagnostics: options.diagnostics };
  const pages: PageSource[] = [];
  const progress = progressLog('rendered', files.length, options.log);
  // 64 files at a time, so reading one overlaps with rendering the others.
  for (let i = 0; i < files.length; i += 64) {
    const batch = await Promise.all(files.slice(i, i + 64).map((file) => loadPage(file, site)));
    for (const page of batch) if (page) pages.push(page);
    progress(Math.min(i + 64, files.length));
  }
  return pages;
}
