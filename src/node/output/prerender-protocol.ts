/** The messages between the build's prerender threads and the thread writing the site (prerender-threads.ts ↔ prerender-worker.ts). */
import type { SiteData } from '../../shared/site-data';
import type { DocumentShell } from './site-files';

/** What every thread starts with: the prerender bundle to load and the site data it renders from. */
export interface PrerenderWorkerData {
  bundle: string;
  data: SiteData;
}

/** One route's document to render: its page's fragment (none for the not-found page) and its shell. */
export interface PrerenderRequest {
  route: string;
  html: string | undefined;
  shell: DocumentShell;
}

/**
 * The document as UTF-8 bytes, its buffer handed over with the message: the writing thread then holds no
 * copy of it as a string, which it would keep on its heap until a full collection.
 */
export type PrerenderAnswer = Uint8Array;
