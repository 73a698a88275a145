import { isDeepStrictEqual } from 'node:util';
import { neighboursOf } from '../../shared/navigation';
import { contentHash, digestOfAll } from '../content-hash';
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
  type SiteCore,
  type SiteData,
} from '../../shared/site-data';
import type { Manifest, SidebarGroup, SidebarLink } from '../../shared/types';

/** The whole manifest before its hash is known: the hash names the data files the browser loads of it. */
export type UnhashedManifest = Omit<Manifest, 'hash'>;

/** The site data as the browser loads it (layout in src/shared/site-data.ts). */
export interface BrowserData {
  /** The whole manifest; its hash, the deployment's, covers every data file below. */
  manifest: Manifest;
  /** The data files as objects: the prerender renders each document from them. */
  data: SiteData;
  /** The browser's manifest: the site's settings without the page records (and folded groups' entries). */
  manifestJson: string;
  /** The route shards and sidebar group files, by URL (with the base). */
  files: Map<string, string>;
  /** The route shards' names, which the deployment pointer names too. */
  shards: string[];
  /** The files (their names) of the folded sidebar groups that list `route`: a first visit loads them. */
  groupsOf(route: string): string[];
  /**
   * A digest of what the prerender reads of the data to render `route` besides the page's fragment: the
   * browser's manifest without the deployment's names, the route's record and its folded sidebar groups'
   * entries. While it is the same, so is the page's document.
   */
  viewOf(route: string): string;
}

/**
 * Splits the whole manifest into what every page needs and the files fetched per page. A route shard or a
 * group's file is named by its contents, and the browser's manifest names them: the deployment's hash, a
 * hash of the browser's manifest, covers the whole manifest without hashing all of it as one text.
 *
 * `previous`, the data of the site last written (`npm run dev` at a save), gives its route shards whose
 * records are the same as they are, without making and hashing their text again: most of a large site's
 * data, when one page changed.
 */
export function splitForBrowser(unhashed: UnhashedManifest, previous?: BrowserData): BrowserData {
  const { base } = unhashed.site;
  const index = indexManifest(unhashed);
  const folds = sidebarFolds(unhashed.sidebar);
  const groupsOf = groupsByRoute(unhashed.sidebar);
  const files = new Map<string, string>();
  const named = (json: string, url: (base: string, name: string) => string) => {
    const name = contentHash(json);
    files.set(url(base, name), json);
    return name;
  };

  const shards: RouteShard[] = Array.from({ length: shardCount(unhashed.pages.length) }, () => ({ pages: [] }));
  const records = new Map<string, ShardPage>();
  for (const page of unhashed.pages) {
    const record: ShardPage = { ...page, groups: groupsOf.get(page.path) ?? [], neighbours: neighboursOf(page, index) };
    shards[shardOf(page.path, shards.length)]?.pages.push(record);
    records.set(page.path, record);
  }
  const linked = withFragments(unhashed.sidebar, records);
  const groups = folds ? linked.map((group) => ({ items: group.items })) : [];
  const groupNames = groups.map((file) => named(JSON.stringify(file), sidebarGroupUrl));
  const kept = previous?.manifest.site.base === base && previous.shards.length === shards.length ? previous : undefined;
  const shardNames = shards.map((shard, n) => {
    const name = kept?.shards[n];
    const json = name === undefined ? undefined : kept?.files.get(shardUrl(base, name));
    if (name === undefined || json === undefined || !sameRecords(kept?.data.shards[n]?.pages ?? [], shard.pages))
      return named(JSON.stringify(shard), shardUrl);
    files.set(shardUrl(base, name), json);
    return name;
  });
  const sidebar = folds
    ? unhashed.sidebar.map((group, g) => ({
        text: group.text,
        items: [],
        size: group.items.length,
        file: groupNames[g],
      }))
    : linked;
  const core: Omit<SiteCore, 'hash'> = { ...unhashed, sidebar, pages: [], shards: shardNames };
  const hash = contentHash(JSON.stringify(core));
  const data: SiteData = { core: { hash, ...core }, shards, groups };

  // A deployment's names (its hash, its data files', its search data's, its fragments') change with pages
  // no document shows: a document is the same while the rest of what it shows is.
  const { search: _search, shards: _shards, ...shown } = core;
  const shownSidebar = sidebar.map(({ file: _file, ...group }) => ({
    ...group,
    items: group.items.map(({ fragment: _fragment, ...item }) => item),
  }));
  const shownDigest = digestOfAll([JSON.stringify({ ...shown, sidebar: shownSidebar })]);
  return {
    manifest: { hash, ...unhashed },
    data,
    manifestJson: JSON.stringify(data.core),
    files,
    shards: shardNames,
    groupsOf: (route) => (folds ? (groupsOf.get(route) ?? []).flatMap((g) => groupNames[g] ?? []) : []),
    viewOf: (route) => {
      const record = records.get(route);
      const names = folds ? (record?.groups ?? []).map((g) => groupNames[g] ?? '') : [];
      return digestOfAll([shownDigest, JSON.stringify(record ?? null), ...names]);
    },
  };
}

/**
 * The sidebar's entries with the fragment of the page each links to: the reader's intent on an entry fetches
 * the page's content beside its route shard (`SidebarLink.fragment`).
 */
function withFragments(groups: readonly SidebarGroup[], records: ReadonlyMap<string, ShardPage>): SidebarGroup[] {
  const link = (item: SidebarLink): SidebarLink => {
    const fragment = records.get(item.link)?.fragment;
    return fragment === undefined ? item : { ...item, fragment };
  };
  return groups.map((group) => ({ ...group, items: group.items.map(link) }));
}

/** Whether two lists of records would be written as the same JSON (a record's fields compared one by one). */
function sameRecords(before: readonly ShardPage[], now: readonly ShardPage[]): boolean {
  return before.length === now.length && now.every((record, i) => sameRecord(before[i], record));
}

/**
 * A record's fields are strings, or objects it shares with the page it is made from while the page is the
 * same (its front matter, its headings): compared by identity first, their contents only when that differs
 * (its neighbours and groups are made anew for each site; a comparison that allocates nothing keeps a save
 * of one page on a large site from making every record's JSON twice).
 */
function sameRecord(before: ShardPage | undefined, now: ShardPage): boolean {
  if (!before) return false;
  const fields = Object.keys(now) as (keyof ShardPage)[];
  if (fields.length !== Object.keys(before).length) return false;
  return fields.every((field) => {
    const [a, b] = [before[field], now[field]];
    return a === b || (typeof a === 'object' && isDeepStrictEqual(a, b));
  });
}
