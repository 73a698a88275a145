import type { ChunkLoadErrorType } from '../../shared/types';
import type { SearchResults } from './results';

export type WorkerRequest = { type: 'load'; url: string } | { type: 'query'; id: number; query: string };

export type WorkerResponse =
  | { type: 'ready'; records: number }
  /** A query waits for these shard files (URLs); named if the query times out. */
  | { type: 'fetching'; id: number; urls: string[] }
  | { type: 'failed'; errorType: ChunkLoadErrorType; request: string; status?: number; message: string }
  /** `first`: the top of the list, drawn while the rest of its details load; the whole list follows. */
  | { type: 'results'; id: number; query: string; results: SearchResults; ms: number; first?: boolean };
