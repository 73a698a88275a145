import { simpleSlug } from '../../shared/search-text';
import type { SearchPage, SearchRecord } from '../../shared/types';

/**
 * What a search answers and how ranked sections become it: grouped under their pages, at most so many,
 * ready to draw. The engine (engine.ts) ranks; this decides what of the ranking is shown.
 */

/** One result: a section with its page, ready to draw. */
export interface SearchHit {
  /** Page title. */
  t: string;
  /** Section heading; empty for the page intro. */
  h: string;
  /** Route with the section's `#slug`, without the base. */
  u: string;
  /** Excerpt. */
  x: string;
  /** 1 for the page intro, else the heading level. */
  l: 1 | 2 | 3;
  score: number;
}

export interface SearchGroup {
  /** Page title. */
  title: string;
  /** Page route, without the base. */
  url: string;
  hits: SearchHit[];
}

export interface SearchResults {
  /** Pages in rank order, each with its matching sections in rank order. */
  groups: SearchGroup[];
  /** Words to highlight: what was typed, its stems and the words typos were corrected to. */
  terms: string[];
  /** Number of hits over all groups. */
  total: number;
}

/** At most this many sections are shown, and at most this many of one page. */
const MAX_HITS = 20;
const MAX_PER_PAGE = 4;
/** A page's further sections are shown when they score at least this share of its best one. */
const PAGE_FLOOR = 0.5;

/** A section the engine ranked: by tier first (exact title, exact heading), then by value. */
export interface Ranked {
  id: number;
  tier: number;
  value: number;
}

/**
 * Groups ranked sections under their pages; a page ranks by its best section. A page whose title holds
 * every query word (`titled`) is led by its intro; its other sections follow when they score close to its
 * best. `pageOf` gives each section's page.
 */
export function groupRanked(
  ranked: readonly Ranked[],
  titled: ReadonlySet<number>,
  records: readonly SearchRecord[],
  pages: readonly SearchPage[],
  pageOf: Uint32Array,
): SearchGroup[] {
  const groups = new Map<number, { group: SearchGroup; best: number }>();
  let total = 0;
  for (const { id, value } of ranked) {
    if (total >= MAX_HITS) break;
    const record = records[id];
    const p = pageOf[id] ?? 0;
    const page = pages[p];
    if (!record || !page) continue;
    let entry = groups.get(p);
    if (!entry) {
      entry = { group: { title: page.t, url: page.u, hits: [] }, best: value };
      groups.set(p, entry);
    } else if (entry.group.hits.length >= MAX_PER_PAGE || value < entry.best * PAGE_FLOOR) {
      continue;
    }
    entry.group.hits.push(hit(record, page, value));
    total++;
  }
  for (const [p, { group }] of groups) {
    const intro = group.hits.findIndex((h) => h.l === 1);
    if (intro > 0 && titled.has(p)) group.hits.unshift(...group.hits.splice(intro, 1));
  }
  return [...groups.values()].map((e) => e.group);
}

function hit(record: SearchRecord, page: SearchPage, score: number): SearchHit {
  const anchor = record.l === 1 ? '' : `#${record.a ?? simpleSlug(record.h)}`;
  return { t: page.t, h: record.h, u: page.u + anchor, x: record.x, l: record.l, score };
}
