import { contentHash, digestOfAll } from '../content-hash';
import {
  shardUrl,
  sidebarFolds,
  sidebarGroupUrl,
  type ShardPage,
  type SiteCore,
  type SiteData,
} from '../../shared/site-data';
import type { Manifest, SidebarGroup, SidebarLink } from '../../shared/types';
import { routeRecords, sameRecords } from './route-records';

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
  /** Every page's record, by its route. */
  records: ReadonlyMap<string, ShardPage>;
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
 * `previous`, the data of the site last written (`npm run dev` at a save), gives its route shards and
 * folded groups' files whose records are the same as they are, without making and hashing their text
 * again: most of a large site's data, when one page changed (route-records.ts finds which).
 */
export function splitForBrowser(unhashed: UnhashedManifest, previous?: BrowserData): BrowserData {
  const { base } = unhashed.site;
  const kept = previous?.manifest.site.base === base ? previous : undefined;
  const folds = sidebarFolds(unhashed.sidebar);
  const files = new Map<string, string>();
  const named = (json: string, url: (base: string, name: string) => string) => {
    const name = contentHash(json);
    files.set(url(base, name), json);
    return name;
  };
  /** The file of the site last written at `url`, kept as it is. */
  const keep = (url: string) => {
    const json = kept?.files.get(url);
    if (json !== undefined) files.set(url, json);
    return json !== undefined;
  };

  const { shards, records, changed } = routeRecords(
    unhashed,
    kept && { manifest: kept.manifest, shards: kept.data.shards, records: kept.records },
  );
  // A folded group lists the fragments of its pages: it is the same while none of them changed.
  const touched = changed && new Set([...changed].flatMap((route) => records.get(route)?.groups ?? []));
  const groupFiles = folds
    ? unhashed.sidebar.map((group, g) => {
        const keptName = touched && !touched.has(g) ? kept?.data.core.sidebar[g]?.file : undefined;
        const keptFile = kept?.data.groups[g];
        if (keptName !== undefined && keptFile && keep(sidebarGroupUrl(base, keptName)))
          return { name: keptName, file: keptFile };
        const file = { items: withFragments(group, records).items };
        return { name: named(JSON.stringify(file), sidebarGroupUrl), file };
      })
    : [];
  const shardNames = shards.map((shard, n) => {
    const name = kept?.shards[n];
    const keptShard = kept?.data.shards[n];
    const same = changed ? shard === keptShard : sameRecords(keptShard?.pages ?? [], shard.pages);
    if (name !== undefined && same && keep(shardUrl(base, name))) return name;
    return named(JSON.stringify(shard), shardUrl);
  });
  const sidebar = folds
    ? unhashed.sidebar.map((group, g) => ({
        text: group.text,
        items: [],
        size: group.items.length,
        file: groupFiles[g]?.name,
      }))
    : unhashed.sidebar.map((group) => withFragments(group, records));
  const core: Omit<SiteCore, 'hash'> = { ...unhashed, sidebar, pages: [], shards: shardNames };
  const hash = contentHash(JSON.stringify(core));
  const data: SiteData = { core: { hash, ...core }, shards, groups: groupFiles.map(({ file }) => file) };

  // A deployment's names (its hash, its data files', its search data's, its fragments') change with pages
  // no document shows: a document is the same while the rest of what it shows is.
  const { search: _search, shards: _shards, ...shown } = core;
  const shownSidebar = sidebar.map(({ file: _file, ...group }) => ({
    ...group,
    items: group.items.map(({ fragment: _fragment, ...item }) => item),
  }));
  const shownDigest = digestOfAll([JSON.stringify({ ...shown, sidebar: shownSidebar })]);
  const groupNames = (route: string) =>
    folds ? (records.get(route)?.groups ?? []).flatMap((g) => groupFiles[g]?.name ?? []) : [];
  return {
    manifest: { hash, ...unhashed },
    data,
    manifestJson: JSON.stringify(data.core),
    files,
    shards: shardNames,
    records,
    groupsOf: groupNames,
    viewOf: (route) => digestOfAll([shownDigest, JSON.stringify(records.get(route) ?? null), ...groupNames(route)]),
  };
}

/**
 * A sidebar group's entries with the fragment of the page each links to: the reader's intent on an entry
 * fetches the page's content beside its route shard (`SidebarLink.fragment`).
 */
function withFragments(group: SidebarGroup, records: ReadonlyMap<string, ShardPage>): SidebarGroup {
  const link = (item: SidebarLink): SidebarLink => {
    const fragment = records.get(item.link)?.fragment;
    return fragment === undefined ? item : { ...item, fragment };
  };
  return { ...group, items: group.items.map(link) };
}
