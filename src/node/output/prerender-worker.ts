/**
 * A prerender thread of the build: the app's renderer with its own copy of the site data, rendering the
 * routes it is sent. Bundled for Node and started by prerender-threads.ts; the messages are in
 * prerender-protocol.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRenderer } from './prerender-bundle';
import type { PrerenderReply, PrerenderRequest, PrerenderWorkerData } from './prerender-protocol';

const port = parentPort;
if (!port) throw new Error('prerender-worker.ts runs as a worker thread of the build');
const reply = (message: PrerenderReply) => port.postMessage(message);

const { bundle, data } = workerData as PrerenderWorkerData;
const renderRoute = loadRenderer(bundle);

port.on('message', ({ id, route, html }: PrerenderRequest) => {
  renderRoute(data, route, html).then(
    (appHtml) => reply({ id, type: 'rendered', html: appHtml }),
    (error: unknown) =>
      reply({
        id,
        type: 'failed',
        message: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      }),
  );
});
