import Fuse from 'fuse.js';
import { STOP_WORDS } from '../../shared/search-text';
import type { DetailPage } from '../../shared/search-layout';
import type { PageRecord } from '../analyze/page-record';
import { Pace } from '../pace';

/**
 * Each section's share of text terms (its distinctive words beyond title, heading and excerpt) is capped,
 * and on a large site the cap shrinks so that the text postings stay near a fixed total: a common word's
 * list, which a query loads whole, grows with the site only as far as the text itself does.
 */
const TERMS_PER_SECTION = 32;
const TERMS_MIN = 8;
const TERM_BUDGET = 150_000;

/** Shortest title or heading word Fuse may fuzzily match; shorter typos are too ambiguous to correct. */
const FUZZY_MIN_LENGTH = 3;

/** Index fields, in the order of `IndexedWord.postings`: page fields first, then section fields. */
export const FIELD = { title: 0, name: 1, folder: 2, heading: 3, text: 4 } as const;

/** Where one word occurs: per field, ascending page ids (title, name, folder) or section ids. */
export interface IndexedWord {
  postings: [number[], number[], number[], number[], number[]];
}

/**
 * The whole search index of a site as the build makes it, before it is cut into files: one record per
 * page section (intro, each h2/h3), from the same pass that made the fragments.
 */
export interface SearchIndex {
  pages: DetailPage[];
  /** Every indexed word (stemmed), sorted. */
  words: Map<string, IndexedWord>;
  /** Title keys (stemmed words) with their pages, and heading keys with their sections, for the exact tiers. */
  titleKeys: Map<string, number[]>;
  headingKeys: Map<string, number[]>;
  /** Fuse indexes over the title, heading and route words, one per first character. */
  fuzzy: Map<string, unknown>;
}

/**
 * Indexes every page from its search terms (src/node/analyze/page-search.ts): titles, route words and
 * headings whole; each section's excerpt and its most distinctive other words (tf-idf) as its text. The
 * section text itself never ships. Gives way as `pace` says (src/node/pace.ts).
 */
export async function buildSearchIndex(sources: readonly PageRecord[], pace = new Pace()): Promise<SearchIndex> {
  const pages: DetailPage[] = [];
  const words = new Map<string, IndexedWord>();
  const titleKeys = new Map<string, number[]>();
  const headingKeys = new Map<string, number[]>();
  const fuzzyWords = new Set<string>();
  const textTerms = new TextTerms();
  /** Files terms under a field. */
  const post = (field: number, terms: readonly string[], id: number) => {
    for (const term of terms) {
      let word = words.get(term);
      if (!word) words.set(term, (word = { postings: [[], [], [], [], []] }));
      word.postings[field]?.push(id);
    }
  };
  const keyed = (keys: Map<string, number[]>, key: string, id: number) => {
    if (key === '') return;
    let list = keys.get(key);
    if (!list) keys.set(key, (list = []));
    list.push(id);
  };
  const fuzzy = (terms: readonly string[]) => {
    for (const term of terms) if (fuzzyTerm(term)) fuzzyWords.add(term);
  };

  let id = 0;
  for (const [p, source] of sources.entries()) {
    await pace.tick();
    const search = source.search.read();
    pages.push({ t: source.title, u: source.route, r: search.shown });
    post(FIELD.title, search.title, p);
    post(FIELD.name, search.name, p);
    post(FIELD.folder, search.folder, p);
    keyed(titleKeys, search.key, p);
    fuzzy(search.title);
    fuzzy(search.name);
    fuzzy(search.folder);
    for (const section of search.sections) {
      post(FIELD.heading, section.heading, id);
      keyed(headingKeys, section.key, id);
      fuzzy(section.heading);
      post(FIELD.text, section.excerpt, id);
      textTerms.add(section.text, section.counts);
      id++;
    }
  }
  textTerms.fileInto(words);
  for (const word of words.values()) word.postings[FIELD.text]?.sort((a, b) => a - b);
  return {
    pages,
    words: new Map([...words].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    titleKeys,
    headingKeys,
    fuzzy: fuzzyIndexes(fuzzyWords),
  };
}

/**
 * The distinctive words of each section's full text, beyond what its title, heading and excerpt give:
 * filed as text postings, best first by tf-idf, at most TERMS_PER_SECTION per section. Terms are numbered
 * as first met. Every section's term numbers and counts are kept one after the other in two flat lists: a
 * large site has a hundred thousand sections, far too many to keep a map, or even a typed array, each
 * (the garbage collector tracks every typed array's buffer on its own).
 */
class TextTerms {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly documentFrequency: number[] = [];
  private readonly terms: number[] = [];
  private readonly counts: number[] = [];
  /** Where each section's terms start in `terms` and `counts`, and where the last one ends. */
  private readonly starts: number[] = [0];

  /** The next section's text terms (distinct) and how often each occurs in it. */
  add(terms: readonly string[], counts: readonly number[]): void {
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i] ?? '';
      let t = this.ids.get(term);
      if (t === undefined) {
        this.ids.set(term, (t = this.names.length));
        this.names.push(term);
        this.documentFrequency.push(0);
      }
      this.documentFrequency[t] = (this.documentFrequency[t] ?? 0) + 1;
      this.terms.push(t);
      this.counts.push(counts[i] ?? 1);
    }
    this.starts.push(this.terms.length);
  }

  /** Adds each section's best terms to the text postings of `words`. */
  fileInto(words: Map<string, IndexedWord>): void {
    const { terms, counts, starts, names } = this;
    const sections = starts.length - 1;
    const perSection = Math.floor(Math.max(TERMS_MIN, Math.min(TERMS_PER_SECTION, TERM_BUDGET / sections)));
    // Each term's idf, worked out once rather than in every section that has it.
    const idf = Float64Array.from(this.documentFrequency, (df) => Math.log(sections / df));
    const wordOf: (IndexedWord | undefined)[] = [];
    // A section's terms by position in `terms`, and their weights by the same position.
    const order: number[] = [];
    const weight: number[] = [];
    const name = (i: number) => names[terms[i] ?? 0] ?? '';
    const best = (a: number, b: number) => (weight[b] ?? 0) - (weight[a] ?? 0) || (name(a) < name(b) ? -1 : 1);
    for (let id = 0; id < sections; id++) {
      const from = starts[id] ?? 0;
      const to = starts[id + 1] ?? from;
      order.length = 0;
      for (let i = from; i < to; i++) {
        weight[i] = (1 + Math.log(counts[i] ?? 1)) * (idf[terms[i] ?? 0] ?? 0);
        order.push(i);
      }
      order.sort(best);
      const kept = Math.min(perSection, order.length);
      for (let k = 0; k < kept; k++) {
        const i = order[k] ?? 0;
        const t = terms[i] ?? 0;
        let word = wordOf[t];
        if (!word) {
          const term = name(i);
          word = words.get(term);
          if (!word) words.set(term, (word = { postings: [[], [], [], [], []] }));
          wordOf[t] = word;
        }
        word.postings[FIELD.text].push(id);
      }
    }
  }
}

/** Whether a title, heading or route word is one Fuse may match fuzzily. */
function fuzzyTerm(term: string): boolean {
  return term.length >= FUZZY_MIN_LENGTH && !STOP_WORDS.has(term) && !/^\d+$/.test(term);
}

/**
 * Fuse indexes over the distinct words of titles, headings and routes, one per first letter: a typo
 * keeps its first letter (or swaps it with the second), so a query word is fuzzily matched against one
 * or two small lists instead of every word.
 */
function fuzzyIndexes(words: ReadonlySet<string>): Map<string, unknown> {
  const buckets = new Map<string, string[]>();
  for (const word of [...words].sort()) {
    const letter = word[0] ?? '';
    let bucket = buckets.get(letter);
    if (!bucket) buckets.set(letter, (bucket = []));
    bucket.push(word);
  }
  return new Map([...buckets].map(([letter, list]) => [letter, Fuse.createIndex([], list).toJSON()]));
}
