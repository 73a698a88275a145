import { neighboursOf } from '../../shared/navigation';
import { digestOfAll } from '../content-hash';
import { indexManifest } from '../../shared/resolve';
import {
  groupsByRoute,
  shardCount,
  shardOf,
  shardUrl,
  sidebarFolds,
  sidebarGroupUrl,
  type RouteShard,
  type ShardPage,
  type SidebarGroupFile,
} from '../../shared/site-data';
import type { Manifest } from '../../shared/types';

/** The site data as the browser loads it (layout in src/shared/site-data.ts). */
export interface BrowserData {
  /** The browser's manifest: the site's settings without the page records (and folded groups' entries). */
  manifestJson: string;
  /** The route shards and sidebar group files, by URL (with the base). */
  files: Map<string, string>;
  /** The number of route shards, which the deployment pointer names too. */
  shards: number;
  /** The folded sidebar groups (their index) that list `route`: a first visit loads their files. */
  groupsOf(route: string): number[];
  /**
   * A digest of what the app reads to show `route` besides the page's fragment: the browser's manifest
   * without the deployment's names, the route's record and its sidebar groups' entries. The page's
   * document shows just that of the site (hydration starts from the same data), so while it is the same,
   * so is the document.
   */
  viewOf(route: string): string;
}

/** Splits the whole manifest into what every page needs and the files fetched per page. */
export function splitForBrowser(manifest: Manifest): BrowserData {
  const index = indexManifest(manifest);
  const shards = shardCount(manifest.pages.length);
  const folds = sidebarFolds(manifest.sidebar);
  const groupsOf = groupsByRoute(manifest.sidebar);

  const pagesOf: ShardPage[][] = Array.from({ length: shards }, () => []);
  const records = new Map<string, ShardPage>();
  for (const page of manifest.pages) {
    const record: ShardPage = { ...page, groups: groupsOf.get(page.path) ?? [], neighbours: neighboursOf(page, index) };
    pagesOf[shardOf(page.path, shards)]?.push(record);
    records.set(page.path, record);
  }
  const files = new Map<string, string>();
  const groupDigests: string[] = [];
  pagesOf.forEach((pages, n) => {
    const shard: RouteShard = { hash: manifest.hash, pages };
    files.set(shardUrl(manifest, n), JSON.stringify(shard));
  });
  if (folds) {
    manifest.sidebar.forEach((group, g) => {
      const file: SidebarGroupFile = { hash: manifest.hash, items: group.items };
      files.set(sidebarGroupUrl(manifest, g), JSON.stringify(file));
      groupDigests[g] = digestOfAll([JSON.stringify(group.items)]);
    });
  }
  const core: Manifest = {
    ...manifest,
    sidebar: folds
      ? manifest.sidebar.map((group) => ({ text: group.text, items: [], size: group.items.length }))
      : manifest.sidebar,
    pages: [],
    shards,
  };
  // Every deployment has its own hash, and its search data's name: no document shows either.
  const { hash: _deployment, search: _search, ...shown } = core;
  const shownDigest = digestOfAll([JSON.stringify(shown)]);
  return {
    manifestJson: JSON.stringify(core),
    files,
    shards,
    groupsOf: (route) => (folds ? (groupsOf.get(route) ?? []) : []),
    viewOf: (route) => {
      const record = records.get(route);
      const groups = folds ? (record?.groups ?? []).map((g) => groupDigests[g] ?? '') : [];
      return digestOfAll([shownDigest, JSON.stringify(record ?? null), ...groups]);
    },
  };
}
