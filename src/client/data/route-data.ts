import type { ShardPage, SiteCore, RouteShard, SidebarGroupFile } from '../../shared/site-data';
import { isFolded, shardOf } from '../../shared/site-data';
import { fetchRouteShard, fetchSidebarGroup, fetchSiteCore, type Deployment } from './files';

/** What showing a route reads: the site core and the records of the routes asked for (those that have one). */
export interface RouteData {
  site: SiteCore;
  records: ReadonlyMap<string, ShardPage>;
}

/** The files a route's data came from, by shard and by folded sidebar group: what a cache is seeded with. */
export interface RouteFiles extends RouteData {
  shards: ReadonlyMap<number, RouteShard>;
  groups: ReadonlyMap<number, SidebarGroupFile>;
}

/**
 * How the data files are read: straight from the network (the app's start, `plainFiles`), or through React
 * Query's cache once navigation has loaded (src/client/data/site-data.ts). The same fetch functions either way.
 */
export interface FileSource {
  site(deployment: Deployment, signal?: AbortSignal): Promise<SiteCore>;
  shard(deployment: Deployment, n: number, signal?: AbortSignal): Promise<RouteShard>;
  group(deployment: Deployment, g: number, signal?: AbortSignal): Promise<SidebarGroupFile>;
}

export const plainFiles: FileSource = {
  site: fetchSiteCore,
  shard: fetchRouteShard,
  group: fetchSidebarGroup,
};

/** The record of `route` in its shard; a shard of another deployment (never asked for) has none. */
export const recordIn = (shard: RouteShard, deployment: Deployment, route: string): ShardPage | undefined =>
  shard.hash === deployment.hash ? shard.pages.find((page) => page.path === route) : undefined;

/**
 * Reads what `routes` need: the site core, their route shards and the folded sidebar groups that list
 * them (open when the page shows, so loaded before it does).
 */
export async function readRouteData(
  source: FileSource,
  deployment: Deployment,
  routes: readonly string[],
  signal?: AbortSignal,
): Promise<RouteFiles> {
  const site = await source.site(deployment, signal);
  const wanted = [...new Set(routes.map((route) => shardOf(route, site.shards)))];
  const shards = new Map(
    await Promise.all(wanted.map(async (n) => [n, await source.shard(deployment, n, signal)] as const)),
  );
  const records = new Map<string, ShardPage>();
  for (const route of routes) {
    const shard = shards.get(shardOf(route, site.shards));
    const record = shard && recordIn(shard, deployment, route);
    if (record) records.set(route, record);
  }
  const listing = new Set([...records.values()].flatMap((record) => record.groups));
  const folded = [...listing].filter((g) => site.sidebar[g] && isFolded(site.sidebar[g]));
  const groups = new Map(
    await Promise.all(folded.map(async (g) => [g, await source.group(deployment, g, signal)] as const)),
  );
  return { site, records, shards, groups };
}
