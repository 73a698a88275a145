import type { Manifest } from '../../shared/types';
import { SearchClient } from './search-client';

/**
 * One worker per search data file, kept for the visit: a new deployment's search data, another file, gets
 * a worker of its own.
 */
const clients = new Map<string, SearchClient>();

export function searchClientFor(manifest: Manifest): SearchClient {
  let client = clients.get(manifest.search);
  if (!client) {
    client = new SearchClient(manifest.searchWorker, manifest.search);
    clients.set(manifest.search, client);
  }
  return client;
}

/**
 * Starts the search data file's worker (made on first use) and its index loading; a load already under
 * way goes on.
 */
export function startSearch(manifest: Manifest): void {
  searchClientFor(manifest).load();
}
