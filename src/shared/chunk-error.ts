import type { ChunkLoadErrorType } from './types';

/**
 * A page fragment, the manifest, the search data or a script chunk failed to load.
 * Thrown at the fetch layer; callers switch on `type`, never on the message.
 */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';

  constructor(
    /** The chunk's id: a page key, `manifest`, `search` or a script chunk's name. */
    readonly chunkId: string,
    readonly type: ChunkLoadErrorType,
    /** The URL that failed. */
    readonly request: string,
    /** HTTP status when there was a response. */
    readonly status?: number,
  ) {
    super(`Loading chunk ${chunkId} failed.`);
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof Error && error.name === 'ChunkLoadError' && 'type' in error;
}

/** Plain words for the reader, per failure type. */
export function describeChunkError(error: ChunkLoadError): string {
  switch (error.type) {
    case 'missing':
      return 'The file was not found on the server. The site may have been updated since this tab opened.';
    case 'timeout':
      return 'The server took too long to answer.';
    case 'error':
      // An `error` with a success status is a body that arrived cut short or damaged (fetch-chunk.ts):
      // the server did not "answer with an error", and the connection is not to blame either.
      if (error.status !== undefined && error.status < 400) return 'The file arrived incomplete or damaged.';
      return error.status
        ? `The server answered with an error (HTTP ${error.status}).`
        : 'The network request failed. Check your connection.';
  }
}
