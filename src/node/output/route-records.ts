import { isDeepStrictEqual } from 'node:util';
import { neighboursOf } from '../../shared/navigation';
import { indexManifest, type ManifestIndex } from '../../shared/resolve';
import { groupsByRoute, shardCount, shardOf, type RouteShard, type ShardPage } from '../../shared/site-data';
import type { Manifest, PageMeta } from '../../shared/types';

/** What the records are made of: the site's pages and its sidebar. */
type PagesAndSidebar = Pick<Manifest, 'pages' | 'sidebar'>;

/** The records the route shards hold, by shard and by route. */
export interface RouteRecords {
  shards: RouteShard[];
  records: Map<string, ShardPage>;
  /**
   * The routes whose records may differ from those of the data kept (`KeptRecords`); undefined when every
   * record is made anew, and a shard is then the same as before only when each of its records is.
   */
  changed?: ReadonlySet<string>;
}

/** The records of the site last written, as its data split them. */
export interface KeptRecords {
  manifest: Manifest;
  shards: readonly RouteShard[];
  records: ReadonlyMap<string, ShardPage>;
}

/**
 * The records of `site`'s pages, each with the sidebar groups that list it and its neighbours. A
 * record holds, besides its page's own fields, what the sidebar and the pages' routes and titles make (its
 * groups, its neighbours): while those are as in `kept`, a page whose fields are the same keeps its record
 * and its shard, and only the others are made again (a save of one page on a large site).
 */
export function routeRecords(site: PagesAndSidebar, kept: KeptRecords | undefined): RouteRecords {
  const count = shardCount(site.pages.length);
  if (kept && kept.shards.length === count && sameAround(kept.manifest, site)) return besideKept(site, kept);
  const index = indexManifest(site);
  const groupsOf = groupsByRoute(site.sidebar);
  const shards: RouteShard[] = Array.from({ length: count }, () => ({ pages: [] }));
  const records = new Map<string, ShardPage>();
  for (const page of site.pages) {
    const record: ShardPage = { ...page, groups: groupsOf.get(page.path) ?? [], neighbours: neighboursOf(page, index) };
    shards[shardOf(page.path, count)]?.pages.push(record);
    records.set(page.path, record);
  }
  return { shards, records };
}

/** The records of `kept` where a page's fields are the same, new ones where they are not. */
function besideKept(site: PagesAndSidebar, kept: KeptRecords): RouteRecords {
  const shards = [...kept.shards];
  const records = new Map(kept.records);
  const changed = new Set<string>();
  let index: ManifestIndex | undefined;
  site.pages.forEach((page, i) => {
    const before = kept.manifest.pages[i];
    const old = records.get(page.path);
    if (!before || !old || sameFields(before, page)) return;
    // The neighbours follow the sidebar, unless the page's front matter names them.
    const { prev, next } = before.frontmatter;
    const ownLinks = prev === page.frontmatter.prev && next === page.frontmatter.next;
    const neighbours = ownLinks ? old.neighbours : neighboursOf(page, (index ??= indexManifest(site)));
    const record: ShardPage = { ...page, groups: old.groups, neighbours };
    const n = shardOf(page.path, shards.length);
    const shard = shards[n];
    if (!shard) return;
    const pages = shard === kept.shards[n] ? [...shard.pages] : shard.pages;
    pages[pages.indexOf(old)] = record;
    shards[n] = { pages };
    records.set(page.path, record);
    changed.add(page.path);
  });
  return { shards, records, changed };
}

/**
 * Whether the groups and neighbours of every record are as `before` made them: the same sidebar, and the
 * same routes in the same order with the same titles (a neighbour a page's front matter names shows its title).
 */
function sameAround(before: Manifest, now: PagesAndSidebar): boolean {
  const { pages } = before;
  return (
    pages.length === now.pages.length &&
    now.pages.every((page, i) => pages[i]?.path === page.path && pages[i]?.title === page.title) &&
    isDeepStrictEqual(before.sidebar, now.sidebar)
  );
}

/**
 * Whether a page's fields (or a record's) are those it had: written as the same JSON. They are strings, or
 * objects it shares with the page it is made from while the page is the same (its front matter, its
 * headings): compared by identity first, their contents only when that differs (a comparison that allocates
 * nothing keeps a save of one page from making every record's JSON twice).
 */
function sameFields<T extends PageMeta>(before: T | undefined, now: T): boolean {
  if (!before) return false;
  const fields = Object.keys(now) as (keyof T)[];
  if (fields.length !== Object.keys(before).length) return false;
  return fields.every((field) => {
    const [a, b] = [before[field], now[field]];
    return a === b || (typeof a === 'object' && isDeepStrictEqual(a, b));
  });
}

/** Whether two lists of records would be written as the same JSON. */
export function sameRecords(before: readonly ShardPage[], now: readonly ShardPage[]): boolean {
  return before.length === now.length && now.every((record, i) => sameFields(before[i], record));
}
