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
  type ShardPage,
  type SiteCore,
  type SiteData,
} from '../../shared/site-data';
import type { Manifest } from '../../shared/types';

/** The site data as the browser loads it (layout in src/shared/site-data.ts). */
export interface BrowserData {
  /** The data files as objects: the prerender renders each document from them. */
  data: SiteData;
  /** The browser's manifest: the site's settings without the page records (and folded groups' entries). */
  manifestJson: string;
  /** The route shards and sidebar group files, by URL (with the base). */
  files: Map<string, string>;
  /** The number of route shards, which the deployment pointer names too. */
  shards: number;
  /** The folded sidebar groups (their index) that list `route`: a first visit loads their files. */
  groupsOf(route: string): number[];
  /**
   * A digest of what the prerender reads of the data to render `route` besides the page's fragment: the
   * browser's manifest without the deployment's names, the route's record and its folded sidebar groups'
   * entries. While it is the same, so is the page's document.
   */
  viewOf(route: string): string;
}

/** Splits the whole manifest into what every page needs and the files fetched per page. */
export function splitForBrowser(manifest: Manifest): BrowserData {
  const index = indexManifest(manifest);
  const shards = shardCount(manifest.pages.length);
  const folds = sidebarFolds(manifest.sidebar);
  const groupsOf = groupsByRoute(manifest.sidebar);

  const data: SiteData = {
    core: {
      ...manifest,
      sidebar: folds
        ? manifest.sidebar.map((group) => ({ text: group.text, items: [], size: group.items.length }))
        : manifest.sidebar,
      pages: [],
      shards,
    } satisfies SiteCore,
    shards: Array.from({ length: shards }, () => ({ hash: manifest.hash, pages: [] })),
    groups: folds ? manifest.sidebar.map((group) => ({ hash: manifest.hash, items: group.items })) : [],
  };
  const records = new Map<string, ShardPage>();
  for (const page of manifest.pages) {
    const record: ShardPage = { ...page, groups: groupsOf.get(page.path) ?? [], neighbours: neighboursOf(page, index) };
    data.shards[shardOf(page.path, shards)]?.pages.push(record);
    records.set(page.path, record);
  }
  const files = new Map<string, string>();
  data.shards.forEach((shard, n) => files.set(shardUrl(manifest, n), JSON.stringify(shard)));
  const groupDigests = data.groups.map((file, g) => {
    const json = JSON.stringify(file);
    files.set(sidebarGroupUrl(manifest, g), json);
    return digestOfAll([JSON.stringify(file.items)]);
  });
  // Every deployment has its own hash, and its search data's name: no document shows either.
  const { hash: _deployment, search: _search, ...shown } = data.core;
  const shownDigest = digestOfAll([JSON.stringify(shown)]);
  return {
    data,
    manifestJson: JSON.stringify(data.core),
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
