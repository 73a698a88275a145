import type { Manifest } from '../../shared/types';
import { SearchClient } from './search-client';

const clients = new Map<string, SearchClient>();

/** One worker per search data file: kept for the visit, replaced when a new deployment brings new data. */
export function getSearchClient(manifest: Manifest): SearchClient {
  let client = clients.get(manifest.search);
  if (!client) {
    client = new SearchClient(manifest.searchWorker, manifest.search);
    clients.set(manifest.search, client);
  }
  return client;
}
