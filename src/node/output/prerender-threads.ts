import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { SiteData } from '../../shared/site-data';
import { compiledFile, projectRootOf } from '../compiled';
import { startThreads, type BuildThreads } from '../threads';
import type { PrerenderReply, PrerenderRequest, PrerenderWorkerData } from './prerender-protocol';
import type { RenderDocument } from './site-files';

/**
 * Below this many pages the build prerenders on its own thread: a thread takes a while to start (the
 * renderer's modules and its copy of the site data), longer than a small site's documents take to render.
 */
const MIN_PAGES_FOR_THREADS = 400;
/**
 * Documents each thread has been sent and not yet returned: enough that it never waits for the next, also
 * while the build's thread is busy writing the site's other files (write-site.ts).
 */
const ROUTES_PER_THREAD = 32;

/** How many prerender threads a site of `pages` pages is worth: none below the threshold, else one per free core. */
export function prerenderThreadCount(pages: number): number {
  if (pages < MIN_PAGES_FOR_THREADS) return 0;
  // The build's own thread keeps a core busy writing the files.
  return Math.max(1, availableParallelism() - 1);
}

interface Sent {
  resolve: (document: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  inFlight: number;
}

/**
 * Renders documents on worker threads, each with the renderer and its own copy of the site data, while the
 * build's thread writes the files. `renderDocument` renders from the data the threads started with;
 * `ahead` is how many documents to have sent at once. `stop` must follow, whatever happens.
 */
export class PrerenderThreads {
  private readonly sent = new Map<number, Sent>();
  private nextId = 0;
  private failure: Error | undefined;

  private threads: Thread[] = [];
  private running: BuildThreads | undefined;

  private constructor() {}

  /** Starts `count` threads rendering with the bundle `bundle` from `data` (cloned into each). */
  static async start(bundle: string, data: SiteData, count: number): Promise<PrerenderThreads> {
    const pool = new PrerenderThreads();
    const workerData: PrerenderWorkerData = { bundle, data };
    pool.running = await startThreads('prerender', threadFile(), {
      count,
      workerData,
      onFailure: (error) => pool.fail(error),
    });
    pool.threads = pool.running.workers.map((worker) => pool.listen(worker));
    return pool;
  }

  get ahead(): number {
    return this.threads.length * ROUTES_PER_THREAD;
  }

  readonly renderDocument: RenderDocument = (route, html, shell) => {
    if (this.failure) return Promise.reject(this.failure);
    const thread = this.threads.reduce((least, next) => (next.inFlight < least.inFlight ? next : least));
    const id = this.nextId++;
    const request: PrerenderRequest = { id, route, html, shell };
    return new Promise<Uint8Array>((resolve, reject) => {
      this.sent.set(id, { resolve, reject });
      thread.inFlight++;
      thread.worker.postMessage(request);
    });
  };

  async stop(): Promise<void> {
    await this.running?.stop();
  }

  private listen(worker: Worker): Thread {
    const thread: Thread = { worker, inFlight: 0 };
    worker.on('message', (reply: PrerenderReply) => {
      const sent = this.sent.get(reply.id);
      if (!sent) return;
      this.sent.delete(reply.id);
      thread.inFlight--;
      if (reply.type === 'rendered') return sent.resolve(reply.document);
      // The renderer's own error, as the build's thread would have thrown it: it names the route.
      const error = new Error(reply.message);
      if (reply.stack) error.stack = reply.stack;
      sent.reject(error);
    });
    return thread;
  }

  /** A thread that failed fails every document sent and not yet returned, and every one sent after. */
  private fail(error: Error): void {
    this.failure ??= error;
    for (const sent of this.sent.values()) sent.reject(error);
    this.sent.clear();
  }
}

/** The script each prerender thread runs: the compiled worker (src/node/compiled.ts). */
function threadFile(): string {
  return compiledFile(projectRootOf(import.meta.url), 'prerender-worker');
}
