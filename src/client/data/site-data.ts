import { queryOptions, useQuery, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { recordRoutes } from '../../shared/paths';
import {
  isFolded,
  manifestUrl,
  shardOf,
  shardUrl,
  sidebarGroupUrl,
  type RouteShard,
  type ShardPage,
  type SiteCore,
  type SiteData,
} from '../../shared/site-data';
import { deploymentQuery, useDeployment, type Deployment } from './deployment';
import { fetchChunk } from './fetch-chunk';
import { parseRouteShard, parseSidebarGroup, parseSiteCore } from './parse';
import { ensureQuery, networkMode, retryTransient } from './queries';

/**
 * The client side of src/shared/site-data.ts: the site core, each route shard and each folded sidebar
 * group are queries of their own, keyed by the deployment they belong to. A file never changes under its
 * name, so each is read once.
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

/** The browser's manifest: the site's settings, redirects, search files and sidebar headings. */
export const siteQuery = (deployment: Deployment) =>
  queryOptions({
    queryKey: ['site', deployment.hash],
    queryFn: ({ signal }) => fetchChunk(deployment.manifest, 'manifest', signal, parseSiteCore),
    ...dataFile,
  });

/** Route shard `n`: the page records whose route hashes to it. */
export const routeShardQuery = (deployment: Deployment, n: number) =>
  queryOptions({
    queryKey: ['routes', deployment.hash, n],
    queryFn: ({ signal }) => fetchChunk(shardUrl(deployment, n), `routes-${n}`, signal, parseRouteShard),
    ...dataFile,
  });

/** The entries of folded sidebar group `g`. */
export const sidebarGroupQuery = (deployment: Deployment, g: number) =>
  queryOptions({
    queryKey: ['sidebar', deployment.hash, g],
    queryFn: ({ signal }) => fetchChunk(sidebarGroupUrl(deployment, g), `sidebar-${g}`, signal, parseSidebarGroup),
    ...dataFile,
  });

/** What showing a route reads: the site core and the records of the routes asked for (those that have one). */
export interface RouteData {
  site: SiteCore;
  records: ReadonlyMap<string, ShardPage>;
}

/** The record of `route` in its shard; a shard of another deployment (never asked for) has none. */
const recordIn = (shard: RouteShard, deployment: Deployment, route: string) =>
  shard.hash === deployment.hash ? shard.pages.find((page) => page.path === route) : undefined;

/**
 * Makes sure what `routes` need is loaded: the site core, their route shards and the folded sidebar
 * groups that list them (open when the page shows, so loaded before it does).
 */
export async function ensureRouteData(
  queryClient: QueryClient,
  deployment: Deployment,
  routes: readonly string[],
  signal?: AbortSignal,
): Promise<RouteData> {
  const site = await ensureQuery(queryClient, siteQuery(deployment), signal);
  const wanted = [...new Set(routes.map((route) => shardOf(route, site.shards)))];
  const shards = new Map(
    await Promise.all(
      wanted.map(async (n) => [n, await ensureQuery(queryClient, routeShardQuery(deployment, n), signal)] as const),
    ),
  );
  const records = new Map<string, ShardPage>();
  for (const route of routes) {
    const shard = shards.get(shardOf(route, site.shards));
    const record = shard && recordIn(shard, deployment, route);
    if (record) records.set(route, record);
  }
  const groups = new Set([...records.values()].flatMap((record) => record.groups));
  const folded = [...groups].filter((g) => site.sidebar[g] && isFolded(site.sidebar[g]));
  await Promise.all(folded.map((g) => ensureQuery(queryClient, sidebarGroupQuery(deployment, g), signal)));
  return { site, records };
}

/**
 * Fills `queryClient` as the app's start fills it for `route` (`ensureRouteData` of `recordRoutes`),
 * from the objects the build writes as the data files: the prerender renders from the same data the
 * browser hydrates from. Returns the route's record, when it has one.
 */
export function seedRouteData(queryClient: QueryClient, data: SiteData, route: string): ShardPage | undefined {
  const { core } = data;
  const base = core.site.base;
  const deployment: Deployment = {
    manifest: manifestUrl(core),
    hash: core.hash,
    shards: core.shards,
    site: { base },
  };
  queryClient.setQueryData(deploymentQuery(base).queryKey, deployment);
  queryClient.setQueryData(siteQuery(deployment).queryKey, core);
  let own: ShardPage | undefined;
  for (const path of recordRoutes(route)) {
    const n = shardOf(path, core.shards);
    const shard = data.shards[n];
    if (!shard) continue;
    queryClient.setQueryData(routeShardQuery(deployment, n).queryKey, shard);
    const record = recordIn(shard, deployment, path);
    if (path === route) own = record;
    for (const g of record?.groups ?? []) {
      const group = data.groups[g];
      if (group) queryClient.setQueryData(sidebarGroupQuery(deployment, g).queryKey, group);
    }
  }
  return own;
}

/** The site core of the deployment the tab runs, for a view. */
export function useSite(): SiteCore {
  const deployment = useDeployment();
  return useSuspenseQuery(siteQuery(deployment)).data;
}

/** The entries of folded sidebar group `g`, loaded when a view asks for them. */
export function useSidebarGroup(g: number) {
  const deployment = useDeployment();
  return useQuery(sidebarGroupQuery(deployment, g));
}
