/// <reference lib="webworker" />
import { isChunkLoadError } from '../../shared/chunk-error';
import { shardKindOf, shardUrl } from '../../shared/search-layout';
import { fetchChunk } from '../data/fetch-chunk';
import { parseSearchEntry } from '../data/parse';
import { SearchEngine, runQuery } from './engine';
import type { SearchResults } from './results';
import type { WorkerRequest, WorkerResponse } from './protocol';

/** Queries run here, off the main thread, so typing never stutters. */
declare const self: DedicatedWorkerGlobalScope;

const NO_RESULTS: SearchResults = { groups: [], terms: [], total: 0 };

/**
 * Search data up to this size is fetched whole once the first query has been answered, so that search
 * keeps working offline on a site of a few hundred pages. A larger site's reader loads the shards their
 * queries reach, and offline finds what those cover.
 */
const WHOLE_DATA_BYTES = 2_000_000;
/** Requests at a time while the whole data is fetched, leaving room for the page's own. */
const PREFETCH_REQUESTS = 4;
/**
 * A vocabulary of at most this many letter files is fetched with the entry, before the first query: the
 * reader who opened the dialog is about to type, and every query needs it. The first query then waits
 * for its term file alone.
 */
const VOCABULARY_FILES = 4;
/**
 * A query that needs more than this many files at once first waits this long for the reader's next key:
 * typed past, it downloads and parses nothing. That is a word of a letter or two, the prefix of many words
 * spread over many term files, and the detail files of the rest of a list whose top is drawn already.
 * A reader who stops there gets the results as before, a moment later.
 */
const MANY_FILES = 6;
const TYPING_PAUSE_MS = 120;

let engine: SearchEngine | undefined;
let entryUrl = '';
let entryBytes = 0;
let prefetching = false;
let loading: Promise<void> | undefined;
/** The newest query: an older one still waiting for its files stops there. */
let latest = 0;
/** Shard files being fetched, so two queries that reach the same file share one request. */
const fetching = new Map<string, Promise<void>>();

const reply = (message: WorkerResponse) => self.postMessage(message);

function replyFailure(error: unknown, url: string): void {
  const chunk = isChunkLoadError(error) ? error : undefined;
  reply({
    type: 'failed',
    errorType: chunk?.type ?? 'error',
    request: chunk?.request ?? url,
    ...(chunk?.status ? { status: chunk.status } : {}),
    message: error instanceof Error ? error.message : String(error),
  });
}

function load(url: string): Promise<void> {
  if (engine) {
    // A Retry: the shard requests still on their way were asked for under the failure just shown, and
    // may fail the same way (a damaged answer that arrives late); the queries from now on ask afresh.
    fetching.clear();
    reply({ type: 'ready', records: engine.size });
    return Promise.resolve();
  }
  entryUrl = url;
  loading ??= fetchChunk(url, 'search', undefined, parseSearchEntry)
    .then((entry) => {
      const loaded = new SearchEngine(entry);
      engine = loaded;
      entryBytes = entry.bytes;
      reply({ type: 'ready', records: loaded.size });
      const vocabulary = loaded.unloaded().filter((file) => shardKindOf(file) === 'letters');
      // A file that fails here is asked for again by the query that needs it.
      if (vocabulary.length <= VOCABULARY_FILES) loadShards(loaded, vocabulary).catch(() => undefined);
    })
    .catch((error: unknown) => {
      loading = undefined; // a failure is not remembered: the next load tries again
      replyFailure(error, url);
    });
  return loading;
}

/** Fetches shard files into the engine; a failed file is not remembered, so a Retry asks again. */
function loadShards(into: SearchEngine, files: string[]): Promise<void> {
  return Promise.all(
    files.map((file) => {
      let pending = fetching.get(file);
      if (!pending) {
        const url = shardUrl(entryUrl, file);
        const request = fetchChunk(url, 'search', undefined, (text) => into.read(file, text)).finally(() => {
          // Not a newer request for the file, made after a Retry forgot this one.
          if (fetching.get(file) === request) fetching.delete(file);
        });
        fetching.set(file, (pending = request));
      }
      return pending;
    }),
  ).then(() => undefined);
}

async function answer(id: number, query: string, started: number): Promise<void> {
  if (latest !== id) return;
  // Queries are only sent once the index is ready; one that raced a reload gets an empty answer.
  const current = engine;
  if (!current) {
    reply({ type: 'results', id, query, results: NO_RESULTS, ms: 0 });
    return;
  }
  try {
    // A query waits for the reader's next key once at most: past that pause the reader has stopped typing.
    let paused = false;
    const load = async (files: string[]) => {
      if (files.length > MANY_FILES && !paused) {
        paused = true;
        await new Promise((resolve) => setTimeout(resolve, TYPING_PAUSE_MS));
        if (latest !== id) return; // runQuery sees the query is stale and stops
      }
      reply({ type: 'fetching', id, urls: files.map((file) => shardUrl(entryUrl, file)) });
      return loadShards(current, files);
    };
    const first = (results: SearchResults) =>
      reply({ type: 'results', id, query, results, ms: performance.now() - started, first: true });
    const results = await runQuery(current, query, load, () => latest !== id, first);
    if (results) reply({ type: 'results', id, query, results, ms: performance.now() - started });
  } catch (error) {
    if (latest === id) replyFailure(error, entryUrl);
    return;
  }
  if (!prefetching && entryBytes <= WHOLE_DATA_BYTES) void prefetchAll(current);
}

/** Fetches the shards no query has reached, a few at a time; one that fails is left to a later query. */
async function prefetchAll(into: SearchEngine): Promise<void> {
  prefetching = true;
  const files = into.unloaded();
  for (let i = 0; i < files.length; i += PREFETCH_REQUESTS) {
    await loadShards(into, files.slice(i, i + PREFETCH_REQUESTS)).catch(() => undefined);
  }
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const message = event.data;
  if (message.type === 'load') {
    void load(message.url);
    return;
  }
  // A query runs in a task of its own, after the messages already waiting: while the worker was busy the
  // reader typed on, and only the newest of the queries sent meanwhile is worth running.
  latest = message.id;
  const started = performance.now();
  setTimeout(() => void answer(message.id, message.query, started), 0);
};
