import { simpleSlug } from '../../shared/search-text';
import type { DetailPage } from '../../shared/search-layout';

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
export const MAX_HITS = 20;
const MAX_PER_PAGE = 4;
/** A page's further sections are shown when they score at least this share of its best one. */
const PAGE_FLOOR = 0.5;

/** A section the engine ranked: by tier first (exact title, exact heading), then by value. */
export interface Ranked {
  id: number;
  tier: number;
  value: number;
}

/** The sections one page shows, chosen from the ranking. */
export interface Selection {
  page: number;
  hits: Ranked[];
}

/**
 * Groups ranked sections under their pages; a page ranks by its best section. A page whose title holds
 * every query word (`titled`) is led by its intro; its other sections follow when they score close to its
 * best. `pageOf` gives each section's page, `pageStart` each page's first section (its intro).
 */
export function selectRanked(
  ranked: readonly Ranked[],
  titled: ReadonlySet<number>,
  pageOf: Uint32Array,
  pageStart: Uint32Array,
): Selection[] {
  const groups = new Map<number, { selection: Selection; best: number }>();
  let total = 0;
  for (const ranking of ranked) {
    if (total >= MAX_HITS) break;
    const p = pageOf[ranking.id] ?? 0;
    let entry = groups.get(p);
    if (!entry) {
      entry = { selection: { page: p, hits: [] }, best: ranking.value };
      groups.set(p, entry);
    } else if (entry.selection.hits.length >= MAX_PER_PAGE || ranking.value < entry.best * PAGE_FLOOR) {
      continue;
    }
    entry.selection.hits.push(ranking);
    total++;
  }
  for (const [p, { selection }] of groups) {
    const intro = selection.hits.findIndex((h) => h.id === pageStart[p]);
    if (intro > 0 && titled.has(p)) selection.hits.unshift(...selection.hits.splice(intro, 1));
  }
  return [...groups.values()].map((e) => e.selection);
}

/**
 * The groups to draw: the leading ones whose details are loaded (`detail` gives a page with at least the
 * sections at the given positions, or notes what else is needed, in rank order), all of them once every
 * page's are.
 */
export function drawGroups(
  selections: readonly Selection[],
  pageStart: Uint32Array,
  detail: (page: number, sections: number[]) => DetailPage | undefined,
): SearchGroup[] {
  const groups: SearchGroup[] = [];
  let drawable = true;
  for (const { page: p, hits } of selections) {
    const page = detail(
      p,
      hits.map(({ id }) => id - (pageStart[p] ?? 0)),
    );
    if (!page) drawable = false;
    if (!page || !drawable) continue;
    groups.push({
      title: page.t,
      url: page.u,
      hits: hits.map(({ id, value }) => hit(page, page.r[id - (pageStart[p] ?? 0)], value)),
    });
  }
  return groups;
}

function hit(page: DetailPage, section: DetailPage['r'][number] | undefined, score: number): SearchHit {
  const [h, x, l, a] = section ?? ['', '', 1];
  const anchor = l === 1 ? '' : `#${a ?? simpleSlug(h)}`;
  return { t: page.t, h, u: page.u + anchor, x, l, score };
}
