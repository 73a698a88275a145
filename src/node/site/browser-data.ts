import { neighboursOf } from '../../shared/navigation';
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
  /** The data files a first visit of `route` needs beside the manifest: its shard and its sidebar groups. */
  preloads(route: string): string[];
}

/** Splits the whole manifest into what every page needs and the files fetched per page. */
export function splitForBrowser(manifest: Manifest): BrowserData {
  const index = indexManifest(manifest);
  const shards = shardCount(manifest.pages.length);
  const folds = sidebarFolds(manifest.sidebar);
  const groupsOf = groupsByRoute(manifest.sidebar);

  const pagesOf: ShardPage[][] = Array.from({ length: shards }, () => []);
  for (const page of manifest.pages) {
    const record: ShardPage = { ...page, groups: groupsOf.get(page.path) ?? [], neighbours: neighboursOf(page, index) };
    pagesOf[shardOf(page.path, shards)]?.push(record);
  }
  const files = new Map<string, string>();
  pagesOf.forEach((pages, n) => {
    const shard: RouteShard = { hash: manifest.hash, pages };
    files.set(shardUrl(manifest, n), JSON.stringify(shard));
  });
  if (folds) {
    manifest.sidebar.forEach((group, g) => {
      const file: SidebarGroupFile = { hash: manifest.hash, items: group.items };
      files.set(sidebarGroupUrl(manifest, g), JSON.stringify(file));
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
  return {
    manifestJson: JSON.stringify(core),
    files,
    preloads: (route) => [
      shardUrl(manifest, shardOf(route, shards)),
      ...(folds ? (groupsOf.get(route) ?? []).map((g) => sidebarGroupUrl(manifest, g)) : []),
    ],
  };
}
