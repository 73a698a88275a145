import type { SiteData } from '../../shared/site-data';
import { buildWorkerScript } from '../compiled';
import type { Prerender } from './app-bundles';
import { answerRequests, RequestThreads, threadsFor } from '../threads';
import { loadRenderer } from './prerender-bundle';
import {
  aroundFragment,
  framingHere,
  renderingHere,
  type DocumentRenderer,
  type DocumentShell,
  type RenderDocument,
} from './render-document';

/**
 * Below this many documents to render the build prerenders on its own thread: a thread takes a while to
 * start (the renderer's modules and its copy of the site data), longer than a few hundred documents take.
 */
const MIN_DOCUMENTS_FOR_THREADS = 400;
/**
 * Documents each thread has been sent and not yet returned: enough that it never waits for the next, also
 * while the build's thread is busy writing the site's other files (write-site.ts).
 */
const ROUTES_PER_THREAD = 32;

/** How many prerender threads rendering `documents` documents is worth: none below the threshold. */
export function prerenderThreadCount(documents: number): number {
  return threadsFor(documents, MIN_DOCUMENTS_FOR_THREADS, 1);
}

/** What a prerender thread starts with: the prerender bundle to load and the site data it renders from. */
export interface PrerenderThreadWork {
  kind: 'documents';
  bundle: string;
  data: SiteData;
}

/** One route's document to render around its page's fragment (none for the not-found page), and its shell. */
interface DocumentRequest {
  route: string;
  withPage: boolean;
  shell: DocumentShell;
}

/** The site data the documents sent after it are rendered from (another site of the same build). */
interface DataRequest {
  data: SiteData;
}

type PrerenderRequest = DocumentRequest | DataRequest;

/**
 * The prerender threads of one build: each renders documents with the renderer and its own copy of the
 * site data, while the build's thread writes the files. Kept from one of its sites to the next (its
 * versions, built one after the other): a thread's start, its renderer loaded, costs more than it takes to
 * render the documents of a version most of whose pages are cached, and each version would pay it again.
 * Started when a site first has enough documents to render (a build after a one-page edit renders a few and
 * starts none), or as many as it asks for; `stop` must follow, whatever happens.
 */
export class PrerenderThreads {
  /**
   * The threads, once started, and the bundle they loaded; a document comes back as the UTF-8 bytes of
   * its texts before and after the page's fragment (`framingHere`), their buffers handed over with the
   * message: the writing thread then holds no copy of them as strings, kept on its heap until a full
   * collection.
   */
  private running: { bundle: string; threads: Promise<RequestThreads<PrerenderRequest, Uint8Array[]>> } | undefined;

  /**
   * The renderer of a site's documents, with the prerender bundle (loaded on this thread already) and the
   * site data `data`: `count` threads when given (0: this thread), else the threads when they run already or
   * the documents to render are enough to pay for starting them, else this thread. A renderer's error names
   * the route.
   */
  forSite(prerender: Pick<Prerender, 'file' | 'renderRoute'>, data: SiteData, count?: number): DocumentRenderer {
    const { file: bundle, renderRoute } = prerender;
    let render: RenderDocument | undefined;
    return {
      ready: async (documents) => {
        const wanted = count ?? (this.running?.bundle === bundle ? 1 : prerenderThreadCount(documents));
        if (wanted === 0) return 0;
        const threads = await this.threadsFor(bundle, data, wanted);
        render = async (route, html, shell) =>
          aroundFragment(await threads.request({ route, withPage: html !== undefined, shell }), html);
        return threads.count * ROUTES_PER_THREAD;
      },
      render: (...request) => (render ??= renderingHere(renderRoute, data))(...request),
    };
  }

  /** The threads, rendering from `data` with `bundle` from now on: those running (another site of the build), or `count` new ones. */
  private async threadsFor(bundle: string, data: SiteData, count: number) {
    if (this.running?.bundle === bundle) {
      const threads = await this.running.threads;
      await threads.requestEveryThread({ data });
      return threads;
    }
    await this.stop();
    const workerData: PrerenderThreadWork = { kind: 'documents', bundle, data };
    const threads = RequestThreads.start<PrerenderRequest, Uint8Array[]>('prerender', buildWorkerScript(), {
      count,
      workerData,
    });
    this.running = { bundle, threads };
    return threads;
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    const threads = await running?.threads.catch(() => undefined);
    await threads?.stop();
  }
}

/** A prerender thread's side: the app's renderer with its own copy of the site data, rendering each document. */
export function answerDocuments({ bundle, data }: PrerenderThreadWork): void {
  const renderRoute = loadRenderer(bundle);
  let frame = framingHere(renderRoute, data);
  answerRequests<PrerenderRequest, Uint8Array[]>('build-worker.ts', async (request) => {
    if ('data' in request) {
      // Taken before any document sent after it: messages arrive in order, and a render reads its data at once.
      frame = framingHere(renderRoute, request.data);
      return { answer: [] };
    }
    const { route, withPage, shell } = request;
    const parts = await frame(route, withPage, shell);
    return { answer: parts, transfer: [...new Set(parts.map((part) => part.buffer))] };
  });
}
