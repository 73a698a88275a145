import { ChunkLoadError } from '../../shared/chunk-error';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';

/**
 * Loads a lazy script chunk with the spec's timeout and turns any failure into a ChunkLoadError. The
 * browser's import error does not say why it failed, so the chunk URL is asked again to tell a missing
 * file (404) from a network or server error.
 */
export async function importChunk<T>(chunkId: string, load: () => Promise<T>): Promise<T> {
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
