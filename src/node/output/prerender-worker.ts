/**
 * A prerender thread of the build: the app's renderer with its own copy of the site data, rendering the
 * documents it is sent. Bundled for Node and started by prerender-threads.ts; the messages are in
 * prerender-protocol.ts.
 */
import { workerData } from 'node:worker_threads';
import { answerRequests } from '../threads';
import { loadRenderer } from './prerender-bundle';
import type { PrerenderAnswer, PrerenderRequest, PrerenderWorkerData } from './prerender-protocol';
import { renderingHere } from './site-files';

const { bundle, data } = workerData as PrerenderWorkerData;
const render = renderingHere(loadRenderer(bundle), data);
const encoder = new TextEncoder();

answerRequests<PrerenderRequest, PrerenderAnswer>('prerender-worker.ts', async ({ route, html, shell }) => {
  const document = encoder.encode(await render(route, html, shell));
  return { answer: document, transfer: [document.buffer] };
});
