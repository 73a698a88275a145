import { TERM_FIELDS, type SearchEntry, type StoredRanking, type TermShard } from '../../shared/search-layout';
import type { WordsRead } from '../../shared/search-query-words';
import { decodePostings } from '../../shared/search-text';
import { lowerBound } from '../../shared/search-vocabulary';

/**
 * The search data the previous build published, as far as its first results depend on it: the sections
 * of each page, every word's and every title or heading key's posting lists, and the rankings its term
 * files carry. A build compares it with its own index and keeps the rankings no edit can have changed,
 * rather than rank every frequent word of the site again (search-first-results.ts).
 */
export interface PreviousSearch {
  sections: readonly number[];
  /** Each word's posting lists in `TERM_FIELDS` order, space-separated, as the term files hold them. */
  words: ReadonlyMap<string, string>;
  /** Each title or heading key's lists (title, heading), space-separated. */
  phrases: ReadonlyMap<string, string>;
  rankings: ReadonlyMap<string, StoredRanking>;
}

/** The previous search data from its entry and its term files, in order. */
export function previousSearchOf(entry: SearchEntry, shards: readonly TermShard[]): PreviousSearch {
  const words = new Map<string, string>();
  const phrases = new Map<string, string>();
  const rankings = new Map<string, StoredRanking>();
  for (const shard of shards) {
    const lists = TERM_FIELDS.map((_, f) => (shard.p[f] ?? '').split(' '));
    (shard.w === '' ? [] : shard.w.split(' ')).forEach((word, i) => {
      words.set(word, lists.map((list) => list[i] ?? '').join(' '));
    });
    if (shard.k !== undefined) {
      const [titles, headings] = [(shard.kt ?? '').split(' '), (shard.kh ?? '').split(' ')];
      shard.k.split('\n').forEach((key, i) => phrases.set(key, `${titles[i] ?? ''} ${headings[i] ?? ''}`));
    }
    for (const [key, ranking] of Object.entries(shard.q ?? {})) rankings.set(key, ranking);
  }
  return { sections: entry.sections, words, phrases, rankings };
}

/** How many postings a word's lists (space-separated) hold. */
const postingsIn = (lists: string): number => lists.split(' ').reduce((n, list) => n + decodePostings(list).length, 0);

/** The rankings a build may keep, and how its words compare with those they were ranked over. */
export interface EarlierRankings {
  rankings: ReadonlyMap<string, StoredRanking>;
  same: WordsRead & { phrase(key: string): boolean };
}

/**
 * The previous search data's rankings, with how this build's words and keys (`posted`: each key's posting
 * lists as the term files hold them) compare with it; none when a page's sections changed in number or
 * place, which moves every section after it.
 */
export function earlierRankings(
  previous: PreviousSearch | undefined,
  sections: readonly number[],
  posted: readonly { key: string; lists: readonly string[]; phrase: boolean }[],
): EarlierRankings | undefined {
  if (!previous || previous.sections.length !== sections.length) return undefined;
  if (previous.sections.some((count, p) => sections[p] !== count)) return undefined;
  const changed = new Set<string>();
  const words = new Set<string>();
  const phrases = new Map<string, string>();
  for (const { key, lists, phrase } of posted) {
    if (phrase) {
      phrases.set(key, lists.join(' '));
      continue;
    }
    words.add(key);
    if (previous.words.get(key) !== lists.join(' ')) changed.add(key);
  }
  for (const word of previous.words.keys()) if (!words.has(word)) changed.add(word);
  const sorted = [...changed].sort();
  return {
    rankings: previous.rankings,
    same: {
      word: (word) => !changed.has(word),
      changedBeginning: (prefix) => {
        const from = lowerBound(sorted, prefix);
        let to = from;
        while (sorted[to]?.startsWith(prefix)) to++;
        return sorted.slice(from, to);
      },
      otherFrequency: (word) => postingsIn(previous.words.get(word) ?? ''),
      phrase: (key) => previous.phrases.get(key) === phrases.get(key),
    },
  };
}
