import type { LetterShard } from './search-layout';

/**
 * What ranking a query reads of the search data, whoever holds it: the search worker over the shards it
 * has loaded (src/client/search/shards.ts), the build over the whole index while it chooses what the term
 * files carry (src/node/site/search-first-results.ts). Both give the same answers for the same site, so
 * the engine's ranking is the same in both places.
 *
 * Sections are numbered page by page, each page's intro first; lists of ids are ascending.
 */
export interface RankingData {
  /** Number of sections. */
  readonly size: number;
  /** Number of pages. */
  readonly pages: number;
  /** Sections of page p are the ids from `pageStart[p]` to `pageStart[p + 1]`; the first is its intro. */
  readonly pageStart: Uint32Array;
  readonly pageOf: Uint32Array;
  /** The vocabulary of a word's first character. */
  letter(word: string): LetterView | undefined;
  /** Per head field, the pages (title, name, folder) or sections (heading) whose field holds `word`. */
  headPostings(word: string): Record<HeadField, readonly number[]>;
  /** Sections whose text holds `word`. */
  textPostings(word: string): readonly number[];
  /** Says that the postings of `word` will be asked for once the vocabulary knows it (a loader may fetch them early). */
  expectPostings(word: string): void;
  /** Pages whose title, and sections whose heading, is exactly `key` (stemmed words joined by spaces). */
  exact(key: string): { titles: readonly number[]; headings: readonly number[] };
}

/** The fields whose postings a word's head lists hold: the page's, then the section heading. */
export type HeadField = 'title' | 'name' | 'folder' | 'heading';

/** The vocabulary of some first characters: sorted words, their frequencies, and Fuse over title and heading words. */
export class LetterView {
  readonly words: string[];
  private readonly fuse = new Map<string, unknown>();

  constructor(private readonly shard: LetterShard) {
    this.words = shard.w === '' ? [] : shard.w.split(' ');
  }

  lowerBound(word: string): number {
    return lowerBound(this.words, word);
  }

  /** Postings of the word at position v over every field. */
  frequencyAt(v: number): number {
    return this.shard.f[v] ?? 0;
  }

  /** Postings of a word over every field; 0 for a word the index does not have. */
  frequency(word: string): number {
    const v = this.lowerBound(word);
    return this.words[v] === word ? this.frequencyAt(v) : 0;
  }

  /** The serialised Fuse index of one first character's title and heading words. */
  fuzzyIndex(letter: string): unknown {
    return this.shard.fuzzy[letter];
  }

  /** A Fuse instance made once per character, kept with the vocabulary. */
  cached<T>(letter: string, make: () => T): T {
    let value = this.fuse.get(letter) as T | undefined;
    if (value === undefined) this.fuse.set(letter, (value = make()));
    return value;
  }
}

/** The position of the first of the sorted `words` not before `word`. */
export function lowerBound(words: readonly string[], word: string): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((words[mid] ?? '') < word) low = mid + 1;
    else high = mid;
  }
  return low;
}
