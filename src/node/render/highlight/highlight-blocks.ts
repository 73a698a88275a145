import { availableParallelism } from 'node:os';
import path from 'node:path';
import { HighlightCache } from './cache';
import { CodeHighlighter } from './code-highlighter';
import type { BlockHighlighter, BlockSink } from '../../analyze/markdown/code-blocks';
import { diagramKeysIn } from '../../analyze/markdown/diagram';
import { CodeBlocks, type CodeBlock } from './blocks';
import { HighlightPool } from './pool';

/**
 * How code blocks are highlighted, decided in one place: from the cache kept between builds, on this
 * thread for a small site, on worker threads for a large one. Everything else only hands blocks in and
 * takes HTML out.
 */
export interface HighlightOptions {
  /** Where block HTML is kept between builds; only the entries this build used are written back. */
  cacheFile?: string;
  /** The cache of `cacheFile` when already loading (the page pass records its drawings there too). */
  cache?: Promise<HighlightCache>;
  /**
   * The site's page count (below `MIN_PAGES_FOR_THREADS` the blocks are highlighted on this thread); a
   * promise lets the cache load while the scan still runs.
   */
  pages: number | Promise<number>;
  /** Highlight threads (0: this thread); by default as many as the site is large enough to pay for. */
  threads?: number;
  /** Aborting stops the highlighting of a build that will not use it: the promise then rejects. */
  signal?: AbortSignal;
  /**
   * Keys of blocks the build uses without highlighting them: those of pages reused from the last build.
   * The cache keeps their entries, as it keeps those of the blocks it highlights.
   */
  keep?: Promise<readonly string[]>;
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

/**
 * The HTML of every block, by block key (see `CodeBlocks`). Blocks are taken as they come, so on a large
 * site the threads highlight while the pages are still being rendered; it resolves once the iteration has
 * ended and every block is done.
 */
export async function highlightBlocks(
  blocks: AsyncIterable<CodeBlock>,
  options: HighlightOptions,
): Promise<Map<string, string>> {
  const [cache, pages] = await Promise.all([options.cache ?? HighlightCache.load(options.cacheFile), options.pages]);
  const threads = options.threads ?? defaultThreads(pages);
  const html =
    threads === 0
      ? await highlightHere(blocks, cache, options.signal)
      : await highlightOnThreads(blocks, cache, threads, options);
  for (const key of (await options.keep) ?? []) {
    const kept = cache.get(key);
    if (kept !== undefined) cache.record(key, kept);
  }
  await cache.save();
  return html;
}

async function highlightHere(
  blocks: AsyncIterable<CodeBlock>,
  cache: HighlightCache,
  signal: AbortSignal | undefined,
): Promise<Map<string, string>> {
  const results = new Map<string, string>();
  // shiki is loaded at the first block the cache lacks: a build whose blocks are all cached never loads it.
  let highlighter: Promise<CodeHighlighter> | undefined;
  for await (const { key, code, lang, lines } of blocks) {
    signal?.throwIfAborted();
    let html = cache.get(key);
    if (html === undefined) {
      highlighter ??= CodeHighlighter.create();
      // A grammar is loaded when the first block of its language comes.
      await (await highlighter).loadLanguages([lang]);
      html = (await highlighter).highlight(code, lang, new Set(lines));
    }
    cache.record(key, html);
    results.set(key, html);
  }
  return results;
}

async function highlightOnThreads(
  blocks: AsyncIterable<CodeBlock>,
  cache: HighlightCache,
  threads: number,
  options: HighlightOptions,
): Promise<Map<string, string>> {
  // While the pages render, this thread keeps a core busy: one core fewer highlights until they are done.
  const whileRendering = Math.max(1, Math.min(threads, availableParallelism() - 1));
  // An empty cache means a cold build, whose every block needs a thread: they start now, not at the first.
  const pool = HighlightPool.create(whileRendering, threads, cache, cache.size === 0);
  const abort = () => pool.cancel();
  options.signal?.addEventListener('abort', abort);
  try {
    for await (const block of blocks) {
      options.signal?.throwIfAborted();
      pool.add(block);
    }
    // Any thread still starting runs first, so `finish` sees every thread it may add to.
    await pool.ready();
    await pool.finish();
    return pool.results;
  } finally {
    options.signal?.removeEventListener('abort', abort);
    await pool.stop();
  }
}

/** A fragment with its code in: its HTML, and its blocks' keys (for the caches). */
export interface CompleteFragment {
  html: string;
  code: string[];
  /** False when a block's HTML is missing, as highlighting was stopped: such a fragment is never kept. */
  highlighted: boolean;
}

/** Every code block of a build highlighted: the HTML stays here, and fragments come to it to be completed. */
export interface HighlightedCode {
  complete(fragment: string): CompleteFragment;
  /** The fragment with its code in, as `complete` gives it, without the keys: for each later read of it. */
  fill(fragment: string): string;
}

/**
 * A build's highlighting, started before the page pass: the page pass hands it each block
 * (`highlighter`), which leaves a marker in the fragment, and highlighting begins with the first block.
 */
export class BuildHighlighting {
  private readonly blocks: CodeBlocks;
  private readonly stop = new AbortController();
  private keepKeys: (keys: readonly string[]) => void = () => undefined;
  private readonly running: Promise<Map<string, string>>;

  /** The highlight cache is kept in `cacheDir` (none without it); `threads` as in `HighlightOptions`. */
  constructor(cacheDir: string | undefined, pages: number | Promise<number>, threads?: number) {
    const keep = new Promise<readonly string[]>((resolve) => (this.keepKeys = resolve));
    const cacheFile = cacheDir === undefined ? undefined : highlightCacheFile(cacheDir);
    const cache = HighlightCache.load(cacheFile);
    this.blocks = new CodeBlocks(cache);
    const options = { cache, pages, threads, keep, signal: this.stop.signal };
    this.running = highlightBlocks(this.blocks, options);
    this.running.catch(() => undefined);
  }

  get highlighter(): BlockSink {
    return this.blocks;
  }

  /**
   * Every block's HTML, once the page pass is over; `keep` are the keys of the blocks of pages the build
   * reuses without highlighting, whose entries the highlight cache keeps.
   */
  async done(keep: readonly string[]): Promise<HighlightedCode> {
    this.blocks.close();
    this.keepKeys(keep);
    return this.completing(await this.running);
  }

  /**
   * Stops highlighting for a build that will not use it, and waits until no thread is left running. The
   * fragments it completes have no code blocks' HTML (`highlighted` is false for one that needs any).
   */
  async stopped(): Promise<HighlightedCode> {
    this.stop.abort();
    this.blocks.close();
    this.keepKeys([]);
    await this.running.catch(() => undefined);
    return this.completing(new Map());
  }

  private completing(html: ReadonlyMap<string, string>): HighlightedCode {
    return {
      complete: (fragment) => {
        const code = this.blocks.keysIn(fragment);
        const filled = this.blocks.fill(fragment, html);
        return {
          html: filled,
          // Its diagrams' keys too: the cache keeps their drawings while the page is reused unchanged.
          code: [...code, ...diagramKeysIn(fragment)],
          highlighted: code.every((key) => html.has(key)),
        };
      },
      fill: (fragment) => this.blocks.fill(fragment, html),
    };
  }
}

/** A highlighter a long-running process keeps; `save` writes back the cache entries it used. */
export interface LiveHighlighter extends BlockHighlighter {
  save(): Promise<void>;
}

/**
 * The highlighter of `npm run dev`, the other way blocks get highlighted, decided here too: one page at a
 * time, as the page pass asks, on this thread with shiki kept warm, reading and recording the builds'
 * cache. A single edited page is too little work for threads or markers.
 */
export async function liveHighlighter(cacheDir: string): Promise<LiveHighlighter> {
  const cache = await HighlightCache.load(highlightCacheFile(cacheDir));
  const highlighter = await CodeHighlighter.create(cache);
  return {
    knows: (lang) => highlighter.knows(lang),
    prepare: (languages) => highlighter.loadLanguages(languages),
    highlight: (code, lang, highlightedLines) => highlighter.highlight(code, lang, highlightedLines),
    drawn: (key, draw) => cache.drawn(key, draw),
    save: () => cache.save(),
  };
}

/** The highlight cache's file in a build's cache folder. */
function highlightCacheFile(cacheDir: string): string {
  return path.join(cacheDir, 'highlight.json');
}
