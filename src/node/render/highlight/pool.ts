import type { Worker } from 'node:worker_threads';
import { compiledFile, projectRootOf } from '../../compiled';
import type { HighlightCache } from './cache';
import { compileRegexEngine } from './regex-engine';
import type { CodeBlock } from './blocks';
import type { HighlightJob, HighlightReply, HighlightRequest, HighlightWorkerData } from './protocol';
import { startThreads, type BuildThreads } from '../../threads';

/** Jobs a thread is sent at once; a thread has two batches at most, so it never waits for the next. */
const JOBS_PER_BATCH = 16;
const BATCHES_IN_FLIGHT = 2;
/**
 * Code still waiting when the pages are rendered, in characters, from which more threads start. A new
 * thread must start and compile its grammars first, the time a thread takes to highlight a few hundred
 * thousand characters of code, while sharing the cores with the one already running: with less than this
 * waiting, one thread alone finishes first.
 */
const BACKLOG_FOR_MORE_THREADS = 300_000;

interface Thread {
  worker: Worker;
  inFlight: number;
}

/**
 * Highlights code blocks on worker threads while the build renders pages on its own. `add` queues a block
 * (or takes its HTML from the cache); `finish` waits for every block, whose HTML `results` then holds.
 *
 * While this thread renders markdown it keeps a core busy, so `cores - 1` threads highlight meanwhile.
 * When the pages are rendered this thread has nothing left to do but wait: if much code is still waiting,
 * more threads start then. Threads take batches from one queue as they finish the last.
 */
export class HighlightPool {
  /** Each block's HTML, by block key, as it comes. */
  readonly results = new Map<string, string>();
  private readonly keyOf: string[] = [];
  private readonly queued = new Set<string>();
  private readonly waiting: HighlightJob[] = [];
  private readonly threads: Thread[] = [];
  private running: BuildThreads | undefined;
  private starting: Promise<void> | undefined;
  private failure: Error | undefined;
  /** Set by `finish`: no more blocks will come, every thread takes work, partial batches go as they are. */
  private settled: (() => void) | undefined;

  private constructor(
    private readonly cache: HighlightCache,
    private readonly whileRendering: number,
    private readonly maxThreads: number,
  ) {}

  /**
   * A pool that starts `whileRendering` threads when the first block misses the cache, or at once when
   * `eager` (a cold build: a thread takes a while to start, and every block will miss), and up to
   * `maxThreads` in all when `finish` finds a large backlog. A build whose blocks are all in the cache
   * starts none. Blocks can be queued at any time: they wait until a thread takes them. `stop` must
   * follow, whatever happens.
   */
  static create(whileRendering: number, maxThreads: number, cache: HighlightCache, eager: boolean): HighlightPool {
    const pool = new HighlightPool(cache, whileRendering, maxThreads);
    if (eager) pool.startThreads();
    return pool;
  }

  /** Queues a block (once per key) unless the cache has its HTML. */
  add({ key, code, lang, lines }: CodeBlock): void {
    if (this.results.has(key) || this.queued.has(key)) return;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.cache.record(key, cached);
      this.results.set(key, cached);
      return;
    }
    const id = this.keyOf.push(key) - 1;
    this.queued.add(key);
    this.waiting.push({ id, code, lang, lines });
    this.startThreads();
    this.dispatch();
  }

  /** Threads started so far. */
  get threadCount(): number {
    return this.threads.length;
  }

  /** Resolves once the threads started so far are running (at once when none were needed). */
  async ready(): Promise<void> {
    await this.starting;
  }

  /**
   * Waits for every queued block; rejects when a thread failed. Called once `ready` has resolved: the
   * threads it adds for a large backlog are then started before it returns to the event loop.
   */
  async finish(): Promise<void> {
    const backlog = this.waiting.reduce((chars, job) => chars + job.code.length, 0);
    const more = Math.min(this.maxThreads - this.threads.length, Math.floor(backlog / BACKLOG_FOR_MORE_THREADS));
    for (let i = 0; i < more && this.running; i++) this.listen(this.running.spawn());
    await new Promise<void>((resolve, reject) => {
      this.settled = () => (this.failure ? reject(this.failure) : resolve());
      this.dispatch();
      this.checkSettled();
    });
  }

  /** Drops the blocks still waiting: `finish` rejects instead of waiting for them. */
  cancel(): void {
    this.waiting.length = 0;
    this.fail(new Error('highlighting was cancelled'));
  }

  async stop(): Promise<void> {
    await this.starting;
    await this.running?.stop();
  }

  /** Starts the first threads, once; a failure to start fails the pool. */
  private startThreads(): void {
    this.starting ??= (async () => {
      const workerData: Promise<HighlightWorkerData> = compileRegexEngine().then((wasm) => ({ wasm }));
      this.running = await startThreads('highlight', threadFile(), {
        count: Math.max(1, Math.min(this.whileRendering, this.maxThreads)),
        workerData,
        onFailure: (error) => this.fail(error),
      });
      for (const worker of this.running.workers) this.listen(worker);
      this.dispatch();
    })().catch((error: unknown) => this.fail(error instanceof Error ? error : new Error(String(error))));
  }

  private listen(worker: Worker): void {
    const thread: Thread = { worker, inFlight: 0 };
    this.threads.push(thread);
    worker.on('message', (reply: HighlightReply) => {
      if (reply.type === 'failed') return this.fail(new Error(`a highlight thread failed: ${reply.message}`));
      for (const [id, html] of reply.results) {
        const key = this.keyOf[id] ?? '';
        this.results.set(key, html);
        this.cache.record(key, html);
      }
      thread.inFlight--;
      this.dispatch();
      this.checkSettled();
    });
  }

  /** Hands waiting blocks to the threads taking work that have room for another batch. */
  private dispatch(): void {
    for (const thread of this.threads) {
      while (thread.inFlight < BATCHES_IN_FLIGHT && this.waiting.length > 0) {
        // While pages still render, a thread with work in hand waits for a full batch.
        if (!this.settled && thread.inFlight > 0 && this.waiting.length < JOBS_PER_BATCH) return;
        const request: HighlightRequest = { type: 'highlight', jobs: this.waiting.splice(0, JOBS_PER_BATCH) };
        thread.inFlight++;
        thread.worker.postMessage(request);
      }
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.checkSettled();
  }

  private checkSettled(): void {
    const done = this.waiting.length === 0 && this.threads.every((t) => t.inFlight === 0);
    if (this.settled && (this.failure || done)) this.settled();
  }
}

/**
 * The script each highlight thread runs: the compiled worker, or, for the tests of a build whose threads
 * never answer, the file `DOCS_BUILD_TEST_HIGHLIGHT_WORKER` names.
 */
function threadFile(): string {
  return (
    process.env['DOCS_BUILD_TEST_HIGHLIGHT_WORKER'] ?? compiledFile(projectRootOf(import.meta.url), 'highlight-worker')
  );
}
