/** The messages between the build's prerender threads and the thread writing the site (prerender-threads.ts ↔ prerender-worker.ts). */
import type { SiteData } from '../../shared/site-data';

/** What every thread starts with: the prerender bundle to load and the site data it renders from. */
export interface PrerenderWorkerData {
  bundle: string;
  data: SiteData;
}

/** One route to render, with its page's fragment (none for the not-found page), by an id the sender chose. */
export interface PrerenderRequest {
  id: number;
  route: string;
  html: string | undefined;
}

export type PrerenderReply =
  | { id: number; type: 'rendered'; html: string }
  /** The renderer's error, as it would have been thrown on the build's own thread. */
  | { id: number; type: 'failed'; message: string; stack: string | undefined };
