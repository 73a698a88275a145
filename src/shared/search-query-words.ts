import Fuse, { type FuseIndex } from 'fuse.js';
import { editDistance } from './edit-distance';
import { stem, type QueryTerm } from './search-text';
import type { LetterView, RankingData } from './search-vocabulary';

/**
 * Which index words answer one query word, and how well (search-ranker.ts scores the sections they
 * reach): exact, a prefix of it, or a typo of it (by edits).
 */
export const EXACT = 1;
const PREFIX_BASE = 0.4;
const PREFIX_TOP = 0.85;
/** Match quality of a correction by its number of edits (0 is the word itself, handled as exact). */
const FUZZY = [1, 0.7, 0.5] as const;
/** Words before the last are complete words: a prefix match of them counts for less. */
const INNER_PREFIX = 0.6;
/** Most index words one prefix expands to (the most frequent ones), so "s" stays cheap. */
const PREFIX_LIMIT = 40;
/** Shortest prefix expanded into section text; shorter ones match titles and headings only. */
export const TEXT_PREFIX_MIN = 3;
/** Shortest query word corrected for typos, and the edits allowed by length. */
const FUZZY_MIN = 4;
const fuzzyEdits = (length: number) => (length >= 7 ? 2 : 1);

const FUSE_OPTIONS = { includeScore: true, threshold: 0.45, ignoreLocation: true, minMatchCharLength: 2 };

/**
 * The vocabulary words that answer one query word, with how well: the word itself, the words it begins
 * (the reader may still be typing), and, for a word the index does not know, its corrections. The words
 * typos were corrected to are added to `highlight`.
 */
export function expandTerm(
  data: RankingData,
  queryTerm: QueryTerm,
  last: boolean,
  highlight: Set<string>,
): Map<string, number> {
  const { term, word } = queryTerm;
  const matches = new Map<string, number>();
  const put = (w: string, quality: number) => {
    if ((matches.get(w) ?? 0) < quality) matches.set(w, quality);
  };
  const letter = data.letter(term);
  // Until the vocabulary is loaded it cannot say the word is there; it usually is.
  if (!letter) data.expectPostings(term);
  const words = letter?.words ?? [];
  const { exact, prefixed, known } = prefixRange(letter, term);
  if (exact) put(term, EXACT);
  if (word !== term && (data.letter(word)?.frequency(word) ?? 0) > 0) put(word, EXACT);
  for (const v of prefixed) {
    const ratio = term.length / (words[v]?.length ?? 1);
    put(words[v] ?? '', (PREFIX_BASE + (PREFIX_TOP - PREFIX_BASE) * ratio) * (last ? 1 : INNER_PREFIX));
  }

  if (corrects(term, known)) {
    const allowed = fuzzyEdits(term.length);
    // A typo keeps its first letter, or swaps it with the second: those are the letters looked under.
    const letters = new Set([term[0] ?? '', term[1] ?? '']);
    const correct = (candidate: string) => {
      // An unfinished last word is also compared with the candidate's beginning of about its length.
      const distance = editDistance(term, candidate, allowed, last);
      if (distance === 0 || distance > allowed || !data.letter(candidate)?.frequency(candidate)) return false;
      put(candidate, FUZZY[distance] ?? 0);
      highlight.add(candidate);
      return true;
    };
    // Fuse over the words of titles and headings, where the names of things are.
    let corrected = false;
    for (const first of letters) {
      for (const result of fuzzyOf(data, first)?.search(term, { limit: 16 }) ?? []) {
        if (correct(result.item)) corrected = true;
      }
    }
    // Otherwise the words of the text with the same first letter and about the same length.
    for (const first of corrected ? [] : letters) {
      const shard = data.letter(first);
      if (!shard) continue;
      const end = shard.lowerBound(String.fromCharCode(first.charCodeAt(0) + 1));
      for (let v = shard.lowerBound(first); v < end; v++) {
        const candidate = shard.words[v] ?? '';
        if (candidate.length >= term.length - allowed && (last || candidate.length <= term.length + allowed)) {
          correct(candidate);
        }
      }
    }
  }
  return matches;
}

/**
 * Two known words run together ("timezone", "errorhandling"), when the index has the pair more often
 * than the joined word: a section then answers the word if it holds the word or both parts.
 */
export function splitRunTogether(data: RankingData, queryTerm: QueryTerm): [QueryTerm, QueryTerm] | undefined {
  const frequency = (word: string) => data.letter(word)?.frequency(word) ?? 0;
  let best: [QueryTerm, QueryTerm] | undefined;
  let bestFrequency = frequency(queryTerm.term);
  for (const [head, tail] of splits(queryTerm)) {
    const pair = Math.min(frequency(head.term), frequency(tail.term));
    if (pair > bestFrequency) {
      best = [head, tail];
      bestFrequency = pair;
    }
  }
  return best;
}

/** The ways `splitRunTogether` may cut a query word in two. */
function splits({ term, stop }: QueryTerm): [QueryTerm, QueryTerm][] {
  if (stop || term.length < 6) return [];
  const cuts: [QueryTerm, QueryTerm][] = [];
  for (let i = 3; i <= term.length - 3; i++) {
    const head = term.slice(0, i);
    cuts.push([
      { word: head, term: head, stop: false },
      { word: term.slice(i), term: stem(term.slice(i)), stop: false },
    ]);
  }
  return cuts;
}

/**
 * The vocabulary words a query word begins, as positions in its letter's words (at most `PREFIX_LIMIT`,
 * the most frequent), whether the word itself is there, and how many postings they have together.
 */
function prefixRange(letter: LetterView | undefined, term: string) {
  const words = letter?.words ?? [];
  const start = letter?.lowerBound(term) ?? 0;
  const exact = words[start] === term;
  const prefixed: number[] = [];
  for (let v = exact ? start + 1 : start; v < words.length; v++) {
    if (!words[v]?.startsWith(term)) break;
    prefixed.push(v);
  }
  if (letter && prefixed.length > PREFIX_LIMIT) {
    prefixed.sort((a, b) => letter.frequencyAt(b) - letter.frequencyAt(a));
    prefixed.length = PREFIX_LIMIT;
  }
  let known = exact ? (letter?.frequencyAt(start) ?? 0) : 0;
  for (const v of prefixed) known += letter?.frequencyAt(v) ?? 0;
  return { exact, prefixed, known };
}

/** Typos are corrected only for a word the index barely knows, even as the start of a word. */
const corrects = (term: string, known: number) => term.length >= FUZZY_MIN && known <= 2;

/** How a query word's data compares with that of another build of the same site. */
export interface WordsRead {
  /** Whether the other data has the same `word` with the same postings. */
  word(word: string): boolean;
  /** The words beginning with `prefix` that either data has and the other not, or with other postings. */
  changedBeginning(prefix: string): readonly string[];
  /** How many postings the other data has for `word`. */
  otherFrequency(word: string): number;
}

/**
 * Whether the words a query word matches, how well, and their postings, are the same in `data` as in
 * the other data `same` compares it with: when every word `expandTerm` and `splitRunTogether` read is
 * the same there, for the word and, cut in two, for its parts. A word corrected for typos reads more of
 * its letters than is worth following: it counts as changed.
 */
export function sameMatches(data: RankingData, queryTerm: QueryTerm, same: WordsRead): boolean {
  if (!sameExpansion(data, queryTerm, same)) return false;
  const cuts = splits(queryTerm);
  if (!cuts.every(([head, tail]) => same.word(head.term) && same.word(tail.term))) return false;
  const parts = splitRunTogether(data, queryTerm);
  return !parts || parts.every((part) => sameExpansion(data, part, same));
}

/**
 * Whether `expandTerm` reads the same words for a query word. Of the words a prefix begins, only the most
 * frequent are read: a changed word less frequent in both data than every word read is not.
 */
function sameExpansion(data: RankingData, { term, word }: QueryTerm, same: WordsRead): boolean {
  if (!same.word(word) || !same.word(term)) return false;
  const letter = data.letter(term);
  const { prefixed, known } = prefixRange(letter, term);
  const changed = same.changedBeginning(term);
  if (changed.length > 0) {
    // Fewer than the limit: every word the prefix begins is read, in either data.
    if (!letter || prefixed.length < PREFIX_LIMIT) return false;
    const read = new Set(prefixed.map((v) => letter.words[v]));
    const least = Math.min(...prefixed.map((v) => letter.frequencyAt(v)));
    const unread = (w: string) => !read.has(w) && letter.frequency(w) < least && same.otherFrequency(w) < least;
    if (!changed.every(unread)) return false;
  }
  return !corrects(term, known);
}

/** Fuse over the title and heading words starting with one letter, from that letter's vocabulary. */
function fuzzyOf(data: RankingData, letter: string): Fuse<string> | undefined {
  const shard = data.letter(letter);
  const index = shard?.fuzzyIndex(letter) as Parameters<typeof Fuse.parseIndex>[0] | undefined;
  if (!shard || !index) return undefined;
  return shard.cached(letter, () => {
    const words = index.records.map((r) => r.v ?? '');
    return new Fuse(words, FUSE_OPTIONS, Fuse.parseIndex<string>(index) as FuseIndex<string>);
  });
}
