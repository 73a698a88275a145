import { describe, expect, it } from 'vitest';
import { selectLeading, selectRanked, type Ranked } from '../../../src/shared/search-selection';

/** Pages of `sizes[p]` sections each, as the engine numbers them (page by page). */
function pagesOf(sizes: number[]): { pageOf: Uint32Array; pageStart: Uint32Array } {
  const pageStart = new Uint32Array(sizes.length + 1);
  sizes.forEach((n, p) => (pageStart[p + 1] = (pageStart[p] ?? 0) + n));
  const pageOf = new Uint32Array(pageStart[sizes.length] ?? 0);
  sizes.forEach((n, p) => pageOf.fill(p, pageStart[p], (pageStart[p] ?? 0) + n));
  return { pageOf, pageStart };
}

/** A ranking of `count` sections with scores from a fixed pseudo-random sequence, ties included. */
function ranking(count: number, seed: number): Ranked[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, id) => ({
    id,
    tier: next() < 0.01 ? 1 : 0,
    value: Math.round(next() * 50),
  }));
}

describe('the list a query shows', () => {
  it('is the same from the head of a long ranking as from the whole of it sorted', () => {
    // Many small pages, then a site where a few long pages hold most of the sections: the head of the
    // ranking then runs out of pages before the list is full, and a longer head is taken.
    for (const sizes of [Array.from({ length: 5000 }, (_, p) => 1 + (p % 7)), [4000, 3000, 2500, 1, 1, 1]]) {
      const { pageOf, pageStart } = pagesOf(sizes);
      for (const seed of [1, 2, 3]) {
        const ranked = ranking(pageOf.length, seed);
        const titled = new Set([0, 3, 17]);
        const sorted = [...ranked].sort((a, b) => b.tier - a.tier || b.value - a.value || a.id - b.id);
        const whole = selectRanked(sorted, titled, pageOf, pageStart);
        const scored = {
          ids: ranked.map((r) => r.id),
          tier: ranked.map((r) => r.tier),
          value: ranked.map((r) => r.value),
        };
        expect(selectLeading(scored, titled, pageOf, pageStart)).toEqual(whole);
        expect(whole.reduce((n, s) => n + s.hits.length, 0)).toBeGreaterThan(0);
      }
    }
  });
});
