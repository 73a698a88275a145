import { simpleSlug } from '../../shared/search-text';
import type { DetailPage } from '../../shared/search-layout';
import type { Selection } from '../../shared/search-selection';

/**
 * What a search answers, and how the sections a ranking chose (src/shared/search-selection.ts) are drawn:
 * with their pages' titles, routes, headings and excerpts.
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
