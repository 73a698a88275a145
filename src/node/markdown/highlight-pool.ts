import { randomBytes } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { bundleHighlightWorker } from '../output/bundle';
import { startThreads, type BuildThreads } from '../threads';
import {
  compileRegexEngine,
  highlightKey,
  isKnownLanguage,
  isPlainLanguage,
  plainCodeHtml,
  type BlockHighlighter,
  type HighlightCache,
} from './highlight';
import type { HighlightJob, HighlightReply, HighlightRequest, HighlightWorkerData } from './highlight-protocol';

/** Jobs sent to a thread in one message: fewer messages, while every thread still starts early. */
const JOBS_PER_MESSAGE = 16;
/**
 * What compiling a grammar's regular expressions costs a thread, in characters of code it could have
 * highlighted instead (measured on this repository's content: the JavaScript grammar compiles in the
 * time it takes to highlight about 100 KB of JavaScript).
 */
const GRAMMAR_COST = 100_000;

interface Thread {
  worker: Worker;
  queue: HighlightJob[];
  /** The work assigned so far, in characters of code (a grammar's first use counts as GRAMMAR_COST). */
  load: number;
  /** The languages this thread has been sent, whose grammars it compiles. */
  languages: Set<string>;
  outstanding: number;
}

/**
 * Highlights code blocks on worker threads while the build renders pages on its own. `highlight` returns
 * a marker at once and queues the block; `finish` waits for every block and `resolve` puts the HTML in
 * place of the markers.
 *
 * Compiling a grammar's regular expressions is about half the cost of highlighting a site's code from
 * cold, so a language stays on as few threads as keeps them all busy (see `threadFor`).
 */
export class HighlightPool implements BlockHighlighter {
  private readonly nonce = randomBytes(6).toString('hex');
  private readonly marker = new RegExp(`\uE000${this.nonce}:(\\d+)\uE001`, 'g');
  private readonly idOf = new Map<string, number>();
  private readonly keyOf: string[] = [];
  private readonly results: string[] = [];
  private readonly threads: Thread[] = [];
  private running: BuildThreads | undefined;
  private failure: Error | undefined;
  private settled: (() => void) | undefined;

  private constructor(private readonly cache: HighlightCache) {}

  /**
   * Starts `count` threads. Blocks can be queued at once: a thread reads its messages once its shiki is
   * ready. `stop` must follow, whatever happens.
   */
  static async start(srcDir: string, count: number, cache: HighlightCache): Promise<HighlightPool> {
    const pool = new HighlightPool(cache);
    const workerData: HighlightWorkerData = { wasm: await compileRegexEngine() };
    pool.running = await startThreads(srcDir, 'highlight', bundleHighlightWorker, {
      count,
      workerData,
      onFailure: (error) => pool.fail(error),
    });
    for (const worker of pool.running.workers) pool.listen(worker);
    return pool;
  }

  knows(lang: string): boolean {
    return isKnownLanguage(lang);
  }

  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
    if (isPlainLanguage(lang)) return plainCodeHtml(code, highlightedLines);
    const key = highlightKey(code, lang, highlightedLines);
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.cache.record(key, cached);
      return cached;
    }
    let id = this.idOf.get(key);
    if (id === undefined) {
      id = this.keyOf.push(key) - 1;
      this.idOf.set(key, id);
      const thread = this.threadFor(lang.toLowerCase(), code.length);
      thread.queue.push({ id, code, lang, lines: [...highlightedLines] });
      if (thread.queue.length >= JOBS_PER_MESSAGE) this.send(thread);
    }
    return `\uE000${this.nonce}:${id}\uE001`;
  }

  /** Waits for every queued block; rejects when a thread failed. */
  async finish(): Promise<void> {
    for (const thread of this.threads) this.send(thread);
    await new Promise<void>((resolve, reject) => {
      this.settled = () => (this.failure ? reject(this.failure) : resolve());
      this.checkSettled();
    });
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }

  /** The fragment with each marker replaced by its block's HTML. */
  resolve(html: string): string {
    return html.replace(this.marker, (_, id: string) => this.results[Number(id)] ?? '');
  }

  private listen(worker: Worker): void {
    const thread: Thread = { worker, queue: [], load: 0, languages: new Set(), outstanding: 0 };
    this.threads.push(thread);
    worker.on('message', (reply: HighlightReply) => {
      if (reply.type === 'failed') return this.fail(new Error(`a highlight thread failed: ${reply.message}`));
      for (const [id, html] of reply.results) {
        this.results[id] = html;
        this.cache.record(this.keyOf[id] ?? '', html);
      }
      thread.outstanding -= reply.results.length;
      this.checkSettled();
    });
  }

  /**
   * The thread that would be done first with this block: a language stays on the threads that already
   * compiled its grammar, until another thread is so far behind that compiling it there pays.
   */
  private threadFor(lang: string, size: number): Thread {
    const cost = (thread: Thread) => thread.load + size + (thread.languages.has(lang) ? 0 : GRAMMAR_COST);
    const thread = this.threads.reduce((best, candidate) => (cost(candidate) < cost(best) ? candidate : best));
    thread.load = cost(thread);
    thread.languages.add(lang);
    return thread;
  }

  private send(thread: Thread): void {
    if (thread.queue.length === 0) return;
    const request: HighlightRequest = { type: 'highlight', jobs: thread.queue };
    thread.outstanding += thread.queue.length;
    thread.queue = [];
    thread.worker.postMessage(request);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.checkSettled();
  }

  private checkSettled(): void {
    if (this.settled && (this.failure || this.threads.every((t) => t.outstanding === 0))) this.settled();
  }
}
