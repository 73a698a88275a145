import { availableParallelism } from 'node:os';
import type { SiteData } from '../../shared/site-data';
import { compiledFile, projectRootOf } from '../compiled';
import { RequestThreads } from '../threads';
import type { PrerenderAnswer, PrerenderRequest, PrerenderWorkerData } from './prerender-protocol';
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

/**
 * Renders documents on worker threads, each with the renderer and its own copy of the site data, while the
 * build's thread writes the files. `renderDocument` renders from the data the threads started with;
 * `ahead` is how many documents to have sent at once. `stop` must follow, whatever happens.
 */
export class PrerenderThreads {
  private constructor(private readonly threads: RequestThreads<PrerenderRequest, PrerenderAnswer>) {}

  /** Starts `count` threads rendering with the bundle `bundle` from `data` (cloned into each). */
  static async start(bundle: string, data: SiteData, count: number): Promise<PrerenderThreads> {
    const workerData: PrerenderWorkerData = { bundle, data };
    return new PrerenderThreads(await RequestThreads.start('prerender', threadFile(), { count, workerData }));
  }

  get ahead(): number {
    return this.threads.count * ROUTES_PER_THREAD;
  }

  /** A renderer's error, as the build's thread would have thrown it, names the route. */
  readonly renderDocument: RenderDocument = (route, html, shell) => this.threads.request({ route, html, shell });

  async stop(): Promise<void> {
    await this.threads.stop();
  }
}

/** The script each prerender thread runs: the compiled worker (src/node/compiled.ts). */
function threadFile(): string {
  return compiledFile(projectRootOf(import.meta.url), 'prerender-worker');
}
