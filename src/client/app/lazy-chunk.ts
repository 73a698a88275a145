import { ChunkLoadError, isChunkLoadError } from '../../shared/chunk-error';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';
import { reloadOntoNewApp } from './new-app';

/**
 * A lazy script chunk that can be loaded again after a failure. Browsers long kept a failed module fetch
 * in their module map, so a second `import()` of the same URL fails at once without asking the server
 * (whatwg/html#6768; only recent versions fetch again). A retry therefore imports the chunk under a fresh
 * query: a new module-map entry, fetched for real. Only a module that never ran is loaded this way, so
 * nothing is instantiated twice. Callers share one load: a prefetch and the render that needs the module
 * wait on the same request and the same deadline, and a loaded module is handed out again as it is.
 * Once a load has failed, a prefetch starts none: loading again is the reader's (Retry, or opening what
 * needs the module), from the moment they ask, not a request begun while the fault may still have been
 * there, which their Retry would only join. A chunk that is gone because a new app replaced this one moves
 * the tab onto it (new-app.ts).
 */
export function retryableChunk<T>(chunkId: string, load: () => Promise<T>): (purpose?: 'prefetch') => Promise<T> {
  // Known before the first attempt, so a timeout (which has no error message to read a URL from) names
  // the file, and its Retry asks for it under a fresh query instead of joining the request that hangs.
  const chunkUrl = chunkUrlOf(load);
  let failedUrl = '';
  let failures = 0;
  let lastError: unknown;
  let current: Promise<T> | undefined;
  const attempt = async () => {
    // The chunk itself is retried, even when the file that failed was one of its imports; without its
    // URL, the file the browser named.
    const retried = chunkUrl || failedUrl;
    const url = failures > 0 && retried ? `${retried}?retry=${failures}` : '';
    const loader = url ? () => import(/* fetched as is, not bundled */ url) as Promise<T> : load;
    try {
      return await importChunk(chunkId, loader, chunkUrl || failedUrl);
    } catch (error) {
      failures += 1;
      lastError = error;
      if (isChunkLoadError(error) && error.request) failedUrl = error.request;
      current = undefined;
      throw error;
    }
  };
  const shared = () => (current ??= attempt());
  return (purpose) => {
    // A prefetch only fails: the reader asked for nothing yet. After a failure it joins a load the reader
    // started, and starts none (above).
    if (purpose === 'prefetch') return current || failures === 0 ? shared() : Promise.reject(lastError);
    return shared().catch(async (error: unknown) => {
      // Gone: a new app replaced this one, and the page reloads onto it (new-app.ts); the load then never
      // settles, and the reader sees nothing fail. Otherwise, the explanation and Retry.
      if (isChunkLoadError(error) && error.type === 'missing' && (await reloadOntoNewApp(chunkId))) {
        return new Promise<never>(() => {});
      }
      throw error;
    });
  };
}

/**
 * The URL of the chunk a loader imports, read from the loader's own source. esbuild writes a lazy
 * `import('./Module')` as `import("./chunk.HASH.js")`, relative to the output file holding it, and every
 * chunk sits in the one assets/js folder, so the specifier resolved against this module's URL is the file.
 * A loader written any other way (unbundled source in tests) gives '': errors then name no URL, and the
 * reader's text never depends on it.
 */
export function chunkUrlOf(load: () => unknown): string {
  const specifier = /\bimport\(\s*["'`](\.\.?\/[^"'`]+\.js)["'`]\s*\)/.exec(String(load))?.[1];
  return specifier ? new URL(specifier, import.meta.url).href : '';
}

/**
 * Loads a lazy script chunk with the spec's timeout and turns any failure into a ChunkLoadError. The
 * browser's import error does not say why it failed, so the chunk URL is asked again to tell a missing
 * file (404) from a network or server error. `request` is the chunk's URL when known ('' otherwise).
 */
async function importChunk<T>(chunkId: string, load: () => Promise<T>, request: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError(chunkId, 'timeout', request)), CHUNK_LOAD_TIMEOUT_MS);
  });
  try {
    return await Promise.race([load(), timeout]);
  } catch (error) {
    if (error instanceof ChunkLoadError) throw error;
    throw await classifyImportError(chunkId, error, request);
  } finally {
    clearTimeout(timer);
  }
}

/** The request is the chunk's URL without any retry query, so every attempt names the same file. */
async function classifyImportError(chunkId: string, error: unknown, known: string): Promise<ChunkLoadError> {
  // A failed fetch names its URL; a file that arrived damaged fails to parse (SyntaxError) and names
  // none, so the chunk's own URL is asked about instead.
  const url = /https?:\/\/\S+?\.js/.exec(error instanceof Error ? error.message : String(error))?.[0] ?? known;
  if (!url) return new ChunkLoadError(chunkId, 'error', '');
  try {
    const response = await fetch(url, { method: 'HEAD', cache: 'no-store' });
    // Missing: gone, or a host's HTML page in its place. A 5xx is the server's error, not a missing file;
    // a JavaScript file that is there now failed in transit (status 200: "arrived damaged").
    const type = response.headers.get('content-type') ?? '';
    const missing = response.status === 404 || response.status === 410 || (response.ok && !/javascript/.test(type));
    return new ChunkLoadError(chunkId, missing ? 'missing' : 'error', url, response.status);
  } catch {
    return new ChunkLoadError(chunkId, 'error', url);
  }
}
