import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ShardPage } from '../../shared/site-data';
import { deploymentQuery, type Deployment } from './deployment';
import { fetchRouteShard, fetchSidebarGroup, fetchSiteCore } from './files';
import { ensureQuery, fragmentQuery, networkMode, retryTransient } from './queries';
import { readRouteData, type FileSource, type RouteData, type RouteFiles } from './route-data';

export type { RouteData } from './route-data';

/**
 * Navigation's side of the site data (src/shared/site-data.ts): the site core, each route shard and each
 * folded sidebar group are queries of their own, keyed by their file's name, whose query
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

/** A route shard, by its name: the same name in a later deployment is the same file, read once. */
export const routeShardQuery = (deployment: Deployment, name: string) =>
  queryOptions({
    queryKey: ['routes', deployment.site.base, name],
    queryFn: ({ signal }) => fetchRouteShard(deployment, name, signal),
    ...dataFile,
  });

/** A folded sidebar group's entries, by its file's name. */
export const sidebarGroupQuery = (deployment: Deployment, name: string) =>
  queryOptions({
    queryKey: ['sidebar', deployment.site.base, name],
    queryFn: ({ signal }) => fetchSidebarGroup(deployment, name, signal),
    ...dataFile,
  });

/** The data files read through `queryClient`'s cache. */
export const queryFiles = (queryClient: QueryClient): FileSource => ({
  site: (deployment, signal) => ensureQuery(queryClient, siteQuery(deployment), signal),
  shard: (deployment, name, signal) => ensureQuery(queryClient, routeShardQuery(deployment, name), signal),
  group: (deployment, name, signal) => ensureQuery(queryClient, sidebarGroupQuery(deployment, name), signal),
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
  for (const [name, shard] of files.shards) queryClient.setQueryData(routeShardQuery(deployment, name).queryKey, shard);
  for (const [g, group] of files.groups) {
    const name = files.site.sidebar[g]?.file;
    if (name !== undefined) queryClient.setQueryData(sidebarGroupQuery(deployment, name).queryKey, group);
  }
  if (page) queryClient.setQueryData(fragmentQuery(page.page).queryKey, page.html);
}
