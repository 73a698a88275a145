import type { SiteData } from '../../shared/site-data';
import { compiledFile, projectRootOf } from '../compiled';
import { answerRequests, RequestThreads, threadsFor } from '../threads';
import { loadRenderer } from './prerender-bundle';
import { renderingHere, type DocumentShell, type RenderDocument } from './site-files';

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

/** How many prerender threads a site of `pages` pages is worth: none below the threshold. */
export function prerenderThreadCount(pages: number): number {
  return threadsFor(pages, MIN_PAGES_FOR_THREADS);
}

/** What a prerender thread starts with: the prerender bundle to load and the site data it renders from. */
export interface PrerenderThreadWork {
  kind: 'documents';
  bundle: string;
  data: SiteData;
}

/** One route's document to render: its page's fragment (none for the not-found page) and its shell. */
interface DocumentRequest {
  route: string;
  html: string | undefined;
  shell: DocumentShell;
}

/**
 * Renders documents on worker threads, each with the renderer and its own copy of the site data, while the
 * build's thread writes the files. `renderDocument` renders from the data the threads started with;
 * `ahead` is how many documents to have sent at once. `stop` must follow, whatever happens.
 */
export class PrerenderThreads {
  /**
   * A document comes back as UTF-8 bytes, its buffer handed over with the message: the writing thread then
   * holds no copy of it as a string, which it would keep on its heap until a full collection.
   */
  private constructor(private readonly threads: RequestThreads<DocumentRequest, Uint8Array>) {}

  /** Starts `count` threads rendering with the bundle `bundle` from `data` (cloned into each). */
  static async start(bundle: string, data: SiteData, count: number): Promise<PrerenderThreads> {
    const workerData: PrerenderThreadWork = { kind: 'documents', bundle, data };
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

/** A prerender thread's side: the app's renderer with its own copy of the site data, rendering each document. */
export function answerDocuments({ bundle, data }: PrerenderThreadWork): void {
  const render = renderingHere(loadRenderer(bundle), data);
  const encoder = new TextEncoder();
  answerRequests<DocumentRequest, Uint8Array>('build-worker.ts', async ({ route, html, shell }) => {
    const document = encoder.encode(await render(route, html, shell));
    return { answer: document, transfer: [document.buffer] };
  });
}

/** The script every thread of the build runs: the compiled worker (src/node/compiled.ts). */
function threadFile(): string {
  return compiledFile(projectRootOf(import.meta.url), 'build-worker');
}
