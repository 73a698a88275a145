import { queryOptions, type EnsureQueryDataOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { isChunkLoadError } from '../../shared/chunk-error';
import type { PageMeta } from '../../shared/types';
import { fetchFragment } from './files';

/** One automatic retry for transient failures; a missing file or a timeout is shown at once. */
export function retryTransient(failureCount: number, error: unknown): boolean {
  return failureCount < 1 && isChunkLoadError(error) && error.type === 'error' && error.status !== undefined;
}

/**
 * React Query's default network mode holds a query while the browser says it is offline, which left a
 * navigation to a page not yet loaded waiting forever with the progress bar running. Every query here
 * asks the network at once, so an offline reader gets the explanation and Retry right away.
 */
export const networkMode = 'always';

/** A page's fragment, by its URL; `key` names the page in a failure's explanation. */
export const fragmentQuery = (page: Pick<PageMeta, 'fragment' | 'key'>) =>
  queryOptions({
    queryKey: ['fragment', page.fragment],
    queryFn: ({ signal }) => fetchFragment(page, signal),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: retryTransient,
    networkMode,
  });

/** A query's data, fetched if it is not cached; a newer navigation's abort cancels the request. */
export async function ensureQuery<T, K extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<T, unknown, T, K>,
  signal: AbortSignal | undefined,
): Promise<T> {
  const cancel = () => void queryClient.cancelQueries({ queryKey: options.queryKey });
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await queryClient.ensureQueryData(options);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
