import { queryOptions, type EnsureQueryDataOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { isChunkLoadError } from '../../shared/chunk-error';
import type { Manifest, PageMeta } from '../../shared/types';
import { fetchChunk } from './fetch-chunk';
import { parseFragment, parseManifest, parsePointer } from './parse';
import { takePointerRequest } from './pointer-request';

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

/** The manifest of the deployment this tab runs; its URL changes only when a new deployment is found. */
const manifestLocation = { url: '' };

/** The `<meta>` that shows which manifest the tab runs on, for tools and tests: the document names none. */
const MANIFEST_META = 'docs-manifest';

/** Sets the manifest the tab runs on: the deployment pointer's, read at start or when a deployment changed. */
export function setManifestUrl(url: string): void {
  manifestLocation.url = url;
  let meta = document.querySelector<HTMLMetaElement>(`meta[name="${MANIFEST_META}"]`);
  if (!meta) {
    meta = Object.assign(document.createElement('meta'), { name: MANIFEST_META });
    document.head.append(meta);
  }
  meta.content = url;
}

export const manifestQuery = () =>
  queryOptions({
    queryKey: ['manifest'],
    queryFn: ({ signal }) => fetchChunk(manifestLocation.url, 'manifest', signal, parseManifest),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: retryTransient,
    networkMode,
  });

/** The deployment pointer at `url`, past any cache; `started`: a request for it made earlier, to read. */
export const fetchPointer = (url: string, signal: AbortSignal | undefined, started?: Promise<Response>) =>
  fetchChunk(url, 'version', signal, parsePointer, { cache: 'no-cache' }, started);

/**
 * The deployment pointer as the app reads it to start: the boot script's request first, a new one when
 * that failed and is tried again.
 */
export const pointerQuery = (url: string) =>
  queryOptions({
    queryKey: ['pointer', url],
    queryFn: ({ signal }) => fetchPointer(url, signal, takePointerRequest()),
    retry: retryTransient,
    networkMode,
  });

export const fragmentQuery = (page: PageMeta) =>
  queryOptions({
    queryKey: ['fragment', page.fragment],
    queryFn: ({ signal }) => fetchChunk(page.fragment, page.key, signal, parseFragment),
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    retry: retryTransient,
    networkMode,
  });

export function currentManifest(queryClient: QueryClient): Manifest {
  const manifest = queryClient.getQueryData<Manifest>(manifestQuery().queryKey);
  if (!manifest) throw new Error('the manifest is read before it was loaded');
  return manifest;
}

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
