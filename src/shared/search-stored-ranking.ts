import type { Ranking } from './search-ranker';
import { tokenize } from './search-text';

/**
 * The engine's ranking of a one-word query, as a term file carries it. The build runs the engine's own
 * ranking (search-ranker.ts) for every beginning of a site's frequent words (src/node/site/
 * search-first-results.ts) and stores what it gave; the search worker draws that ranking for the same
 * query instead of ranking it again. A short beginning reaches tens of thousands of sections, and
 * ranking them is the first query's longest step in the worker, which runs the ranking's code for the
 * first time then. What comes first is still the engine's decision: this is its answer, kept.
 *
 * The words to highlight (`t`), then per page shown, in rank order, its sections' ids, tiers and values.
 */
export interface StoredRanking {
  t: string[];
  s: [page: number, hits: [id: number, tier: number, value: number][]][];
}

/**
 * The key a query's stored ranking is filed under: its one word as the engine reads it, or undefined for
 * a query of several words or none (the build ranks single words only). Two queries with the same key
 * rank alike, as the ranking reads nothing of a query but its words (`queryTerms`).
 */
export function rankingKey(query: string): string | undefined {
  const words = tokenize(query);
  const [word] = words;
  // queryTerms drops longer words: such a query has no ranking to store.
  return words.length === 1 && word !== undefined && word.length <= 32 ? word : undefined;
}

export function storeRanking({ selections, terms }: Ranking): StoredRanking {
  return {
    t: terms,
    s: selections.map(({ page, hits }) => [page, hits.map(({ id, tier, value }) => [id, tier, value])]),
  };
}

/** The ranking `storeRanking` kept, for `query` (a query with the key it was filed under). */
export function storedRanking(query: string, { t, s }: StoredRanking): Ranking {
  return {
    query,
    terms: t,
    selections: s.map(([page, hits]) => ({ page, hits: hits.map(([id, tier, value]) => ({ id, tier, value })) })),
  };
}
