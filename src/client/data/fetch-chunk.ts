import { ChunkLoadError } from '../../shared/chunk-error';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';

/** Thrown by a validator when the body is not the file that was asked for (e.g. an SPA fallback page). */
export class WrongContentError extends Error {
  constructor(readonly truncated: boolean) {
    super(truncated ? 'truncated content' : 'unexpected content');
  }
}

/**
 * GET a text chunk with the spec's timeout; every failure becomes a ChunkLoadError with a type the UI
 * can explain. Cancellation by the caller (a newer navigation) is rethrown as the abort it is. `started`
 * is a request for `url` made earlier (the boot script's for the deployment pointer), read instead of a
 * new one.
 */
export async function fetchChunk<T>(
  url: string,
  chunkId: string,
  signal: AbortSignal | undefined,
  parse: (text: string) => T,
  init: RequestInit = {},
  started?: Promise<Response>,
): Promise<T> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), CHUNK_LOAD_TIMEOUT_MS);
  const onAbort = () => timeout.abort();
  signal?.addEventListener('abort', onAbort);
  try {
    let response: Response;
    try {
      response = await (started
        ? untilAborted(started, timeout.signal)
        : fetch(url, { ...init, signal: timeout.signal }));
    } catch (error) {
      throw classify(error, chunkId, url, signal);
    }
    if (response.status === 404 || response.status === 410)
      throw new ChunkLoadError(chunkId, 'missing', url, response.status);
    if (!response.ok) throw new ChunkLoadError(chunkId, 'error', url, response.status);
    let text: string;
    try {
      text = await untilAborted(response.text(), timeout.signal);
    } catch (error) {
      throw classify(error, chunkId, url, signal);
    }
    try {
      return parse(text);
    } catch (error) {
      const truncated = error instanceof WrongContentError && error.truncated;
      throw new ChunkLoadError(chunkId, truncated ? 'error' : 'missing', url, response.status);
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** `promise`, or the abort once `signal` aborts: a request made before has no signal of this call's. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new DOMException('The request was aborted.', 'AbortError'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function classify(error: unknown, chunkId: string, url: string, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return error;
  if (error instanceof ChunkLoadError) return error;
  const timedOut = error instanceof DOMException && error.name === 'AbortError';
  return new ChunkLoadError(chunkId, timedOut ? 'timeout' : 'error', url);
}
