import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { indexManifest } from '../../shared/resolve';
import {
  groupPending,
  shardOf,
  shardUrl,
  sidebarGroupUrl,
  type RouteShard,
  type ShardPage,
} from '../../shared/site-data';
import type { Manifest } from '../../shared/types';
import { fetchChunk } from './fetch-chunk';
import { parseRouteShard, parseSidebarGroup } from './parse';
import { currentManifest, ensureQuery, manifestQuery, networkMode, retryTransient } from './queries';

/**
 * The client side of src/shared/site-data.ts: the manifest in React Query's cache starts with the
 * site's settings only, and the records of route shards and the entries of sidebar groups are merged
 * into it as they load, each into a new manifest object (the lookup tables are built per object).
 */

const loadedShards = new WeakMap<Manifest, ReadonlySet<number>>();

const dataFile = <T>(url: string, chunkId: string, parse: (text: string) => T) =>
  queryOptions({
    queryKey: ['site-data', url],
    queryFn: ({ signal }) => fetchChunk(url, chunkId, signal, parse),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: retryTransient,
    networkMode,
  });

/**
 * Makes sure the records of `routes` are in the manifest, with the sidebar groups that list them, and
 * returns the manifest. A manifest without shards (the prerenderer's, `npm run dev`'s) has every page.
 */
export async function ensureRoutes(
  queryClient: QueryClient,
  routes: readonly string[],
  signal?: AbortSignal,
): Promise<Manifest> {
  const start = currentManifest(queryClient);
  const { shards } = start;
  if (!shards) return start;
  const wanted = [...new Set(routes.map((route) => shardOf(route, shards)))];
  const loaded = await Promise.all(
    wanted
      .filter((n) => !loadedShards.get(start)?.has(n))
      .map(async (n) => {
        const url = shardUrl(start, n);
        return [n, await ensureQuery(queryClient, dataFile(url, `routes-${n}`, parseRouteShard), signal)] as const;
      }),
  );
  let manifest = currentManifest(queryClient);
  // A new deployment took over meanwhile: its own shards are needed.
  if (manifest.hash !== start.hash) return ensureRoutes(queryClient, routes, signal);
  for (const [n, shard] of loaded) manifest = withShard(manifest, n, shard);
  if (manifest !== currentManifest(queryClient)) queryClient.setQueryData(manifestQuery().queryKey, manifest);
  const { byRoute } = indexManifest(manifest);
  const groups = new Set(routes.flatMap((route) => (byRoute.get(route) as ShardPage | undefined)?.groups ?? []));
  await Promise.all([...groups].map((g) => ensureSidebarGroup(queryClient, g, signal)));
  return currentManifest(queryClient);
}

function withShard(manifest: Manifest, n: number, shard: RouteShard): Manifest {
  const loaded = loadedShards.get(manifest);
  if (loaded?.has(n) || shard.hash !== manifest.hash) return manifest;
  const next = { ...manifest, pages: [...manifest.pages, ...shard.pages] };
  loadedShards.set(next, new Set([...(loaded ?? []), n]));
  return next;
}

/** Loads the entries of sidebar group `g` into the manifest, when they are not there yet. */
export async function ensureSidebarGroup(queryClient: QueryClient, g: number, signal?: AbortSignal): Promise<void> {
  const start = currentManifest(queryClient);
  const group = start.sidebar[g];
  if (!group || !groupPending(group)) return;
  const url = sidebarGroupUrl(start, g);
  const file = await ensureQuery(queryClient, dataFile(url, `sidebar-${g}`, parseSidebarGroup), signal);
  const manifest = currentManifest(queryClient);
  const current = manifest.sidebar[g];
  if (manifest.hash !== file.hash || !current || !groupPending(current)) return;
  const next: Manifest = {
    ...manifest,
    sidebar: manifest.sidebar.map((other, i) => (i === g ? { ...other, items: file.items } : other)),
  };
  const loaded = loadedShards.get(manifest);
  if (loaded) loadedShards.set(next, loaded);
  queryClient.setQueryData(manifestQuery().queryKey, next);
}
