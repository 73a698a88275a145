import { letterOf, shardFor, type LetterShard, type StoredRanking } from '../../shared/search-layout';
import { ranksAlike, SearchRanker, type Ranking } from '../../shared/search-ranker';
import { rankingKey, storedRanking } from '../../shared/search-stored-ranking';
import { LetterView, type HeadField, type RankingData } from '../../shared/search-vocabulary';
import { FIELD, type IndexedWord, type SearchIndex } from './search-index';
import type { Pace } from '../pace';
import type { EarlierRankings } from './search-previous';

/**
 * The engine's first results of a site's frequent words: the term files carry each ranking and the
 * sections it shows (src/node/site/search-files.ts), so that a first query draws from its term file
 * without ranking and without a detail file. Which results come first is decided by the engine's own
 * ranking (src/shared/search-ranker.ts), run here over the whole index: what the build stores for a query
 * is what the reader's engine ranks for it, and a change to the ranking changes both.
 *
 * Each frequent word is ranked as a reader types it: each of its beginnings, then the word. Words are
 * taken most frequent first while the sections they show cost less than `budget` bytes (`sectionBytes`
 * each); a beginning ranked for a more frequent word is not ranked again. The rankings are keyed by
 * `rankingKey`. A ranking of the `earlier` build's that the edits since cannot have changed is kept as it
 * was (`ranksAlike`). Gives way as `pace` says.
 */
export async function firstResults(
  index: SearchIndex,
  budget: number,
  sectionBytes: (id: number) => number,
  pace: Pace,
  earlier?: EarlierRankings,
): Promise<Map<string, Ranking>> {
  const data = new IndexRankingData(index);
  const ranker = new SearchRanker(data);
  const byFrequency = [...index.words].sort(([a, x], [b, y]) => postingCount(y) - postingCount(x) || (a < b ? -1 : 1));
  const rankings = new Map<string, Ranking>();
  for (const [word] of byFrequency) {
    if (budget <= 0) break;
    const ids = new Set<number>();
    for (const query of typedQueries(word)) {
      const key = rankingKey(query);
      if (key === undefined || rankings.has(key)) continue;
      await pace.tick();
      const kept = earlier?.rankings.get(key);
      const alike = kept !== undefined && earlier !== undefined && ranksAlike(data, query, earlier.same);
      const ranking = alike ? storedRanking(query, kept) : ranker.rank(query);
      rankings.set(key, ranking);
      for (const { hits } of ranking.selections) for (const { id } of hits) ids.add(id);
    }
    for (const id of ids) budget -= sectionBytes(id);
  }
  return rankings;
}

/** The sections a ranking shows. */
export const shownIds = (ranking: Ranking): number[] =>
  ranking.selections.flatMap(({ hits }) => hits.map(({ id }) => id));

/**
 * Per term file, from the first keys of the files (`SearchEntry.terms`), the stored rankings whose keys
 * it holds, where the worker looks for them, and the sections they show (ascending ids).
 */
export function fileRankings(
  stored: readonly { key: string; ranking: StoredRanking; ids: readonly number[] }[],
  firsts: readonly string[],
): { q: Record<string, StoredRanking>; ids: number[] }[] {
  const filed = firsts.map(() => ({ q: {} as Record<string, StoredRanking>, ids: new Set<number>() }));
  for (const { key, ranking, ids } of stored) {
    const file = filed[shardFor(firsts, key)];
    if (!file) continue;
    file.q[key] = ranking;
    for (const id of ids) file.ids.add(id);
  }
  return filed.map(({ q, ids }) => ({ q, ids: [...ids].sort((a, b) => a - b) }));
}

/** A word's postings over every field, as the letter files count them. */
export const postingCount = (word: IndexedWord): number => word.postings.reduce((n, list) => n + list.length, 0);

/** The queries of a word as a reader types it: each of its beginnings, then the word. */
export const typedQueries = (word: string): string[] => [...word].map((_, i) => word.slice(0, i + 1));

const NONE: readonly number[] = [];

/**
 * The whole index as the engine's ranking reads it: the same vocabulary, postings and exact keys that the
 * letter and term files hold, with nothing left to load.
 */
class IndexRankingData implements RankingData {
  readonly size: number;
  readonly pages: number;
  readonly pageStart: Uint32Array;
  readonly pageOf: Uint32Array;
  private readonly letters = new Map<string, LetterView>();

  constructor(private readonly index: SearchIndex) {
    this.pages = index.pages.length;
    this.pageStart = new Uint32Array(this.pages + 1);
    index.pages.forEach((page, p) => (this.pageStart[p + 1] = (this.pageStart[p] ?? 0) + page.r.length));
    this.size = this.pageStart[this.pages] ?? 0;
    this.pageOf = new Uint32Array(this.size);
    index.pages.forEach((_, p) => this.pageOf.fill(p, this.pageStart[p], this.pageStart[p + 1]));
    const byLetter = new Map<string, LetterShard>();
    for (const [word, indexed] of index.words) {
      const letter = letterOf(word);
      let shard = byLetter.get(letter);
      if (!shard) byLetter.set(letter, (shard = { w: '', f: [], fuzzy: { [letter]: index.fuzzy.get(letter) } }));
      shard.w += shard.w === '' ? word : ` ${word}`;
      shard.f.push(postingCount(indexed));
    }
    for (const [letter, shard] of byLetter) this.letters.set(letter, new LetterView(shard));
  }

  letter(word: string): LetterView | undefined {
    return this.letters.get(letterOf(word));
  }

  headPostings(word: string): Record<HeadField, readonly number[]> {
    const postings = this.index.words.get(word)?.postings;
    return {
      title: postings?.[FIELD.title] ?? NONE,
      name: postings?.[FIELD.name] ?? NONE,
      folder: postings?.[FIELD.folder] ?? NONE,
      heading: postings?.[FIELD.heading] ?? NONE,
    };
  }

  textPostings(word: string): readonly number[] {
    return this.index.words.get(word)?.postings[FIELD.text] ?? NONE;
  }

  expectPostings(): void {
    // The whole index is here: nothing to fetch ahead.
  }

  exact(key: string): { titles: readonly number[]; headings: readonly number[] } {
    return { titles: this.index.titleKeys.get(key) ?? NONE, headings: this.index.headingKeys.get(key) ?? NONE };
  }
}
