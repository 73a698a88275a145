/**
 * A prerender thread of the build: the app's renderer with its own copy of the site data, rendering the
 * documents it is sent. Bundled for Node and started by prerender-threads.ts; the messages are in
 * prerender-protocol.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRenderer } from './prerender-bundle';
import type { PrerenderReply, PrerenderRequest, PrerenderWorkerData } from './prerender-protocol';
import { renderingHere } from './site-files';

const port = parentPort;
if (!port) throw new Error('prerender-worker.ts runs as a worker thread of the build');

const { bundle, data } = workerData as PrerenderWorkerData;
const render = renderingHere(loadRenderer(bundle), data);
const encoder = new TextEncoder();

port.on('message', ({ id, route, html, shell }: PrerenderRequest) => {
  render(route, html, shell).then(
    (document) => {
      const bytes = encoder.encode(document);
      const reply: PrerenderReply = { id, type: 'rendered', document: bytes };
      port.postMessage(reply, [bytes.buffer]);
    },
    (error: unknown) => {
      const reply: PrerenderReply = {
        id,
        type: 'failed',
        message: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      };
      port.postMessage(reply);
    },
  );
});
