import type { StoredRanking } from './search-layout';
import type { Ranking } from './search-ranker';
import { tokenize } from './search-text';

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
