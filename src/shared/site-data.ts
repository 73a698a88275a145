/**
 * The layout of the site data the browser loads, shared by the build that splits it and the app that
 * loads it. What a reader downloads must not grow with the site, so the browser's manifest holds only
 * what every page needs (settings, redirects, the sidebar's group headings); the page records travel in
 * route shards, each page's in the shard its route hashes to, and the entries of a folded sidebar group
 * in a file of their own. A first visit preloads its page's shard and sidebar group beside the manifest;
 * a link's shard is fetched when the link is hovered, focused or followed. `npm run build` and `npm run
 * dev` write the same files, and the prerender renders each page from them (`SiteData`), so a document
 * and the app that takes it over read the same data. `manifest/` keeps the whole manifest for tooling.
 */
import type { Neighbours } from './navigation';
import type { DeploymentPointer, Manifest, PageMeta, SidebarGroup, SidebarLink, SiteSettings } from './types';

/**
 * The deployment pointer's file at the base (`DeploymentPointer`): unhashed and never cached, it names the
 * current manifest. The app reads it to start, and again to find a new deployment.
 */
export const POINTER_FILE = 'version.json';

/** Pages per route shard, on average: a shard is a few kilobytes however large the site grows. */
export const PAGES_PER_SHARD = 64;

/**
 * Past this many entries the sidebar folds: only the current page's group is open, and the others fold
 * behind their heading. Every page's HTML carries the sidebar, so with all of a few thousand entries in
 * each, the site's size (and its prerendering time) would grow with the square of its page count.
 */
export const FOLD_SIDEBAR_ABOVE = 300;

/** A page record as a route shard carries it: what the page needs that the shared manifest no longer has. */
export interface ShardPage extends PageMeta {
  /** The sidebar groups (their index) that list this page: loaded before it shows, as they are open. */
  groups: number[];
  /** Previous and next links, resolved by the build: the sidebar order around the page may not be loaded. */
  neighbours: Neighbours;
}

/**
 * The browser's manifest (`assets/js/manifest.<hash>.json`): the site's settings, without page records;
 * `shards` names its route shards' files, in order.
 */
export type SiteCore = Manifest & { shards: string[] };

/**
 * The site data files of one deployment, as objects: what the build writes, what the browser fetches and
 * what the prerender renders from, so that a document and the app that takes it over read the same data.
 */
export interface SiteData {
  core: SiteCore;
  /** Route shard `n` is `shards[n]`. */
  shards: RouteShard[];
  /** The entries of folded sidebar group `g` are `groups[g]`; none when the sidebar does not fold. */
  groups: SidebarGroupFile[];
}

/** One route shard file. */
export interface RouteShard {
  pages: ShardPage[];
}

/** The entries of one folded sidebar group, in a file of their own. */
export interface SidebarGroupFile {
  items: SidebarLink[];
}

/** Number of route shards for a site of `pages` pages. */
export const shardCount = (pages: number): number => Math.max(1, Math.ceil(pages / PAGES_PER_SHARD));

/** The shard a route's record lives in (FNV-1a over its UTF-16 units): the same in the build and the app. */
export function shardOf(route: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < route.length; i++) hash = Math.imul(hash ^ route.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

/** What names a deployment's manifest: the site's base and the deployment's hash (a manifest has both). */
export interface DeploymentFiles {
  hash: string;
  site: Pick<SiteSettings, 'base'>;
}

/**
 * A data file's URL. The manifest is named by the deployment's hash; a route shard or a sidebar group's
 * file by a hash of its own contents, which the manifest (and the pointer) name: a deployment that changed
 * one page has one new route shard, and a tab keeps every other file it read.
 */
const dataFile = (base: string, kind: string, hash: string) => `${base}assets/js/${kind}.${hash}.json`;

/** Whether a path (in the output folder, or a URL) is one of a deployment's data files (`dataFile`). */
export const isDeploymentData = (path: string): boolean =>
  /(^|\/)assets\/js\/(manifest|routes|sidebar)\.[0-9a-f]+\.json$/.test(path);

/** URL of the browser's manifest, the site core (`SiteCore`). */
export const manifestUrl = (deployment: DeploymentFiles): string =>
  dataFile(deployment.site.base, 'manifest', deployment.hash);

/** URL of the route shard named `name` (`SiteCore.shards`). */
export const shardUrl = (base: string, name: string): string => dataFile(base, 'routes', name);

/** URL of the entries of a folded sidebar group, by its file's name (`SidebarGroup.file`). */
export const sidebarGroupUrl = (base: string, name: string): string => dataFile(base, 'sidebar', name);

/**
 * The data files the app reads as it starts on `routes`, once the deployment pointer has named the
 * deployment: the manifest, the routes' shards and the page's folded sidebar groups (`groups`, their
 * files' names, which the page's document lists). The boot script preloads them, so that the app finds
 * each one loaded.
 */
export function startDataUrls(
  pointer: DeploymentPointer,
  base: string,
  routes: readonly string[],
  groups: readonly string[],
): string[] {
  const shards = pointer.shards ?? [];
  const shardFiles =
    shards.length > 0 ? [...new Set(routes.map((route) => shards[shardOf(route, shards.length)]))] : [];
  return [
    pointer.manifest,
    ...shardFiles.flatMap((name) => (name ? [shardUrl(base, name)] : [])),
    ...groups.map((name) => sidebarGroupUrl(base, name)),
  ];
}

/** Whether the build folds the sidebar (the whole manifest's): more entries than `FOLD_SIDEBAR_ABOVE`. */
export const sidebarFolds = (groups: readonly SidebarGroup[]): boolean =>
  groups.reduce((n, g) => n + g.items.length, 0) > FOLD_SIDEBAR_ABOVE;

/** The sidebar groups (their index) that list each route; a route may be in several. */
export function groupsByRoute(groups: readonly SidebarGroup[]): Map<string, number[]> {
  const byRoute = new Map<string, number[]>();
  groups.forEach((group, g) => {
    for (const item of group.items) {
      const listed = byRoute.get(item.link);
      if (!listed) byRoute.set(item.link, [g]);
      else if (!listed.includes(g)) listed.push(g);
    }
  });
  return byRoute;
}

/**
 * Whether the build folded the group: its entries are in a file of their own (`sidebarGroupUrl`), and the
 * site core has only its heading, size and file name.
 */
export const isFolded = (group: SidebarGroup): boolean => group.size !== undefined;
