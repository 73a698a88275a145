/// <reference lib="webworker" />
import { isChunkLoadError } from '../../shared/chunk-error';
import { fetchChunk } from '../data/fetch-chunk';
import { parseSearchData } from '../data/parse';
import { SearchEngine } from './engine';
import type { SearchResults } from './results';
import type { WorkerRequest, WorkerResponse } from './protocol';

/** Queries run here, off the main thread, so typing never stutters. */
declare const self: DedicatedWorkerGlobalScope;

const NO_RESULTS: SearchResults = { groups: [], terms: [], total: 0 };

let engine: SearchEngine | undefined;
let loading: Promise<void> | undefined;

const reply = (message: WorkerResponse) => self.postMessage(message);

function load(url: string): Promise<void> {
  if (engine) {
    reply({ type: 'ready', records: engine.size });
    return Promise.resolve();
  }
  loading ??= fetchChunk(url, 'search', undefined, parseSearchData)
    .then((data) => {
      engine = new SearchEngine(data);
      reply({ type: 'ready', records: engine.size });
    })
    .catch((error: unknown) => {
      loading = undefined; // a failure is not remembered: the next load tries again
      const chunk = isChunkLoadError(error) ? error : undefined;
      reply({
        type: 'failed',
        errorType: chunk?.type ?? 'error',
        request: chunk?.request ?? url,
        ...(chunk?.status ? { status: chunk.status } : {}),
        message: error instanceof Error ? error.message : String(error),
      });
    });
  return loading;
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const message = event.data;
  if (message.type === 'load') {
    void load(message.url);
    return;
  }
  // Queries are only sent once the index is ready; one that raced a reload gets an empty answer.
  const started = performance.now();
  if (!engine) {
    reply({ type: 'results', id: message.id, query: message.query, results: NO_RESULTS, ms: 0 });
    return;
  }
  const results = engine.search(message.query);
  reply({ type: 'results', id: message.id, query: message.query, results, ms: performance.now() - started });
};
