import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Manifest } from '../../shared/types';
import { SearchClient } from './search-client';

/**
 * One worker per search data file, held by the query client: kept for the visit (never stale, never
 * collected), and a new deployment's search data, a new key, gets a worker of its own.
 */
export const searchClientQuery = (manifest: Manifest) =>
  queryOptions({
    queryKey: ['search-client', manifest.search],
    queryFn: () => new SearchClient(manifest.searchWorker, manifest.search),
    staleTime: Infinity,
    gcTime: Infinity,
    // A client is made, never fetched: nothing to retry, and it is made offline too.
    retry: false,
    networkMode: 'always',
  });

/**
 * Starts the search data file's worker (made on first use) and its index loading; a load already under
 * way goes on.
 */
export function startSearch(queryClient: QueryClient, manifest: Manifest): void {
  void queryClient.ensureQueryData(searchClientQuery(manifest)).then((client) => client.load());
}
