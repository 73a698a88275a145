import { ChunkLoadError, isChunkLoadError } from '../../shared/chunk-error';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';

/**
 * A lazy script chunk that can be loaded again after a failure. Browsers long kept a failed module fetch
 * in their module map, so a second `import()` of the same URL fails at once without asking the server
 * (whatwg/html#6768; only recent versions fetch again). A retry therefore imports the URL that failed
 * under a fresh query: a new module-map entry, fetched for real. Only a module that never ran is loaded
 * this way, so nothing is instantiated twice.
 */
export function retryableChunk<T>(chunkId: string, load: () => Promise<T>): () => Promise<T> {
  let failedUrl = '';
  let attempt = 0;
  return async () => {
    attempt += 1;
    const url = attempt > 1 && failedUrl ? `${failedUrl}?retry=${attempt - 1}` : '';
    try {
      return await importChunk(chunkId, url ? () => import(/* fetched as is, not bundled */ url) as Promise<T> : load);
    } catch (error) {
      if (isChunkLoadError(error) && error.request) failedUrl = error.request;
      throw error;
    }
  };
}

/**
 * Loads a lazy script chunk with the spec's timeout and turns any failure into a ChunkLoadError. The
 * browser's import error does not say why it failed, so the chunk URL is asked again to tell a missing
 * file (404) from a network or server error.
 */
async function importChunk<T>(chunkId: string, load: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError(chunkId, 'timeout', '')), CHUNK_LOAD_TIMEOUT_MS);
  });
  try {
    return await Promise.race([load(), timeout]);
  } catch (error) {
    if (error instanceof ChunkLoadError) throw error;
    throw await classifyImportError(chunkId, error);
  } finally {
    clearTimeout(timer);
  }
}

/** The request is the chunk's URL without any retry query, so every attempt names the same file. */
async function classifyImportError(chunkId: string, error: unknown): Promise<ChunkLoadError> {
  const url = /https?:\/\/\S+?\.js/.exec(error instanceof Error ? error.message : String(error))?.[0] ?? '';
  if (!url) return new ChunkLoadError(chunkId, 'error', url);
  try {
    const response = await fetch(url, { method: 'HEAD', cache: 'no-store' });
    const missing = response.status === 404 || !/javascript/.test(response.headers.get('content-type') ?? '');
    return new ChunkLoadError(chunkId, missing ? 'missing' : 'error', url, response.status);
  } catch {
    return new ChunkLoadError(chunkId, 'error', url);
  }
}
