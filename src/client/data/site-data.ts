import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ShardPage } from '../../shared/site-data';
import { deploymentQuery, type Deployment } from './deployment';
import { fetchRouteShard, fetchSidebarGroup, fetchSiteCore } from './files';
import { ensureQuery, fragmentQuery, networkMode, retryTransient } from './queries';
import { readRouteData, type FileSource, type RouteData, type RouteFiles } from './route-data';

export type { RouteData } from './route-data';

/**
 * Navigation's side of the site data (src/shared/site-data.ts): the site core, each route shard and each
 * folded sidebar group are queries of their own, keyed by the deployment they belong to, whose query
 * functions are the app's plain fetch functions (files.ts). A file never changes under its name, so each
 * is read once.
 */
const dataFile = {
  staleTime: Infinity,
  gcTime: Infinity,
  retry: retryTransient,
  networkMode,
  // A file that failed is asked for again by its Retry (or the next navigation), not by a window's focus.
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
} as const;

export const siteQuery = (deployment: Deployment) =>
  queryOptions({
    queryKey: ['site', deployment.hash],
    queryFn: ({ signal }) => fetchSiteCore(deployment, signal),
    ...dataFile,
  });

export const routeShardQuery = (deployment: Deployment, n: number) =>
  queryOptions({
    queryKey: ['routes', deployment.hash, n],
    queryFn: ({ signal }) => fetchRouteShard(deployment, n, signal),
    ...dataFile,
  });

export const sidebarGroupQuery = (deployment: Deployment, g: number) =>
  queryOptions({
    queryKey: ['sidebar', deployment.hash, g],
    queryFn: ({ signal }) => fetchSidebarGroup(deployment, g, signal),
    ...dataFile,
  });

/** The data files read through `queryClient`'s cache. */
export const queryFiles = (queryClient: QueryClient): FileSource => ({
  site: (deployment, signal) => ensureQuery(queryClient, siteQuery(deployment), signal),
  shard: (deployment, n, signal) => ensureQuery(queryClient, routeShardQuery(deployment, n), signal),
  group: (deployment, g, signal) => ensureQuery(queryClient, sidebarGroupQuery(deployment, g), signal),
});

/**
 * Makes sure what `routes` need is in the cache: the site core, their route shards and the folded sidebar
 * groups that list them.
 */
export async function ensureRouteData(
  queryClient: QueryClient,
  deployment: Deployment,
  routes: readonly string[],
  signal?: AbortSignal,
): Promise<RouteData> {
  const { site, records } = await readRouteData(queryFiles(queryClient), deployment, routes, signal);
  return { site, records };
}

/**
 * Fills `queryClient` with what the app's start read (and the page's fragment, from the document), so
 * navigation fetches none of it again.
 */
export function seedQueries(
  queryClient: QueryClient,
  deployment: Deployment,
  files: Omit<RouteFiles, 'records'>,
  page?: { page: ShardPage; html: string },
): void {
  queryClient.setQueryData(deploymentQuery(deployment.site.base).queryKey, deployment);
  queryClient.setQueryData(siteQuery(deployment).queryKey, files.site);
  for (const [n, shard] of files.shards) queryClient.setQueryData(routeShardQuery(deployment, n).queryKey, shard);
  for (const [g, group] of files.groups) queryClient.setQueryData(sidebarGroupQuery(deployment, g).queryKey, group);
  if (page) queryClient.setQueryData(fragmentQuery(page.page).queryKey, page.html);
}
