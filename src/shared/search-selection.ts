/**
 * Which ranked sections a query shows: grouped under their pages, at most so many. The engine's ranking
 * (search-ranker.ts) ends here, in the search worker and in the build alike; what a selection looks like
 * drawn is src/client/search/results.ts.
 */

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

/** Sections by id with their tier and value, as the engine scored them; `ids` are those with a value. */
export interface Scored {
  ids: number[];
  tier: ArrayLike<number>;
  value: ArrayLike<number>;
}

/** Sections ranked first by a partial sort, at least this many; more when these do not fill the list. */
const LEADING = 256;

/**
 * What `selectRanked` makes of the whole ranking, from its head only: a common word reaches tens of
 * thousands of sections, and sorting them all would be most of a query's time. The list is filled from
 * the leading sections in rank order, so the same head gives the same list; when the head runs out
 * before the list is full (many sections of few pages), a longer head is taken.
 */
export function selectLeading(
  scored: Scored,
  titled: ReadonlySet<number>,
  pageOf: Uint32Array,
  pageStart: Uint32Array,
): Selection[] {
  const { ids, tier, value } = scored;
  // Negative when section a ranks before section b: by tier, then value, then the earlier section.
  const before = (a: number, b: number) =>
    (tier[b] ?? 0) - (tier[a] ?? 0) || (value[b] ?? 0) - (value[a] ?? 0) || a - b;
  const ranked = (head: number[]): Ranked[] => head.map((id) => ({ id, tier: tier[id] ?? 0, value: value[id] ?? 0 }));
  for (let count = LEADING; ; count *= 4) {
    if (count >= ids.length) return selectRanked(ranked([...ids].sort(before)), titled, pageOf, pageStart);
    const selection = selectRanked(ranked(leading(ids, count, before)), titled, pageOf, pageStart);
    if (selection.reduce((n, s) => n + s.hits.length, 0) >= MAX_HITS) return selection;
  }
}

/** The first `count` ids by `before`, in order, kept in a bounded heap whose root is the last of them. */
function leading(ids: readonly number[], count: number, before: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  const sink = (at: number) => {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let last = at;
      if (left < heap.length && before(heap[left] ?? 0, heap[last] ?? 0) > 0) last = left;
      if (right < heap.length && before(heap[right] ?? 0, heap[last] ?? 0) > 0) last = right;
      if (last === at) return;
      swap(heap, at, last);
      at = last;
    }
  };
  for (const id of ids) {
    if (heap.length < count) {
      heap.push(id);
      for (let at = heap.length - 1; at > 0;) {
        const parent = (at - 1) >> 1;
        if (before(heap[at] ?? 0, heap[parent] ?? 0) <= 0) break;
        swap(heap, at, parent);
        at = parent;
      }
    } else if (before(id, heap[0] ?? 0) < 0) {
      heap[0] = id;
      sink(0);
    }
  }
  return heap.sort(before);
}

/**
 * Swaps two entries of the heap in place. Not by destructuring: that makes an array for each swap where
 * the compiler does not remove it, and the build ranks thousands of queries over tens of thousands of
 * sections.
 */
function swap(heap: number[], i: number, j: number): void {
  const kept = heap[i] ?? 0;
  heap[i] = heap[j] ?? 0;
  heap[j] = kept;
}
