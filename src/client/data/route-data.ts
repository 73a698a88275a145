import type { ShardPage, SiteCore, RouteShard, SidebarGroupFile } from '../../shared/site-data';
import { isFolded, shardOf } from '../../shared/site-data';
import { fetchRouteShard, fetchSidebarGroup, fetchSiteCore, type Deployment } from './files';

/** What showing a route reads: the site core and the records of the routes asked for (those that have one). */
export interface RouteData {
  site: SiteCore;
  records: ReadonlyMap<string, ShardPage>;
}

/**
 * The files a route's data came from, by shard (its name) and by folded sidebar group (its index): what a
 * cache is seeded with.
 */
export interface RouteFiles extends RouteData {
  shards: ReadonlyMap<string, RouteShard>;
  groups: ReadonlyMap<number, SidebarGroupFile>;
}

/**
 * How the data files are read: straight from the network (the app's start, `plainFiles`), or through React
 * Query's cache once navigation has loaded (src/client/data/site-data.ts). The same fetch functions either way.
 */
export interface FileSource {
  site(deployment: Deployment, signal?: AbortSignal): Promise<SiteCore>;
  shard(deployment: Deployment, name: string, signal?: AbortSignal): Promise<RouteShard>;
  group(deployment: Deployment, name: string, signal?: AbortSignal): Promise<SidebarGroupFile>;
}

export const plainFiles: FileSource = {
  site: fetchSiteCore,
  shard: fetchRouteShard,
  group: fetchSidebarGroup,
};

/** The record of `route` in its shard. */
export const recordIn = (shard: RouteShard, route: string): ShardPage | undefined =>
  shard.pages.find((page) => page.path === route);

/** The name of the route shard that holds `route`'s record, if any (`SiteCore.shards`). */
export const shardNameOf = (site: Pick<SiteCore, 'shards'>, route: string): string | undefined =>
  site.shards[shardOf(route, site.shards.length)];

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
  const wanted = [...new Set(routes.flatMap((route) => shardNameOf(site, route) ?? []))];
  const shards = new Map(
    await Promise.all(wanted.map(async (name) => [name, await source.shard(deployment, name, signal)] as const)),
  );
  const records = new Map<string, ShardPage>();
  for (const route of routes) {
    const name = shardNameOf(site, route);
    const shard = name === undefined ? undefined : shards.get(name);
    const record = shard && recordIn(shard, route);
    if (record) records.set(route, record);
  }
  const listing = new Set([...records.values()].flatMap((record) => record.groups));
  const folded = [...listing].flatMap((g) => {
    const group = site.sidebar[g];
    return group?.file !== undefined && isFolded(group) ? [[g, group.file] as const] : [];
  });
  const groups = new Map(
    await Promise.all(folded.map(async ([g, file]) => [g, await source.group(deployment, file, signal)] as const)),
  );
  return { site, records, shards, groups };
}
