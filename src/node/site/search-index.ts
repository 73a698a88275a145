import Fuse from 'fuse.js';
import {
  EXCERPT_LENGTH,
  STOP_WORDS,
  chunkTerms,
  indexTerms,
  phraseKey,
  routeWords,
  simpleSlug,
  textChunks,
} from '../../shared/search-text';
import type { DetailPage } from '../../shared/search-layout';
import type { PageSource } from '../analyze/page-record';
import { excerpt } from '../excerpt';

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
 * Indexes every page: titles, route words and headings whole; each section's excerpt and its most
 * distinctive other words (tf-idf) as its text. The section text itself never ships.
 */
export function buildSearchIndex(sources: readonly PageSource[]): SearchIndex {
  const pages: DetailPage[] = [];
  const words = new Map<string, IndexedWord>();
  const titleKeys = new Map<string, number[]>();
  const headingKeys = new Map<string, number[]>();
  const textTerms = new TextTerms();
  /** Files a text's words under a field; returns them all, stop words included. */
  const post = (field: number, text: string, id: number, keepStopWords: boolean): Set<string> => {
    const terms = new Set(indexTerms(text));
    for (const term of terms) {
      if (!keepStopWords && STOP_WORDS.has(term)) continue;
      let word = words.get(term);
      if (!word) words.set(term, (word = { postings: [[], [], [], [], []] }));
      word.postings[field]?.push(id);
    }
    return terms;
  };
  const keyed = (keys: Map<string, number[]>, text: string, id: number) => {
    const k = phraseKey(text);
    if (k === '') return;
    let list = keys.get(k);
    if (!list) keys.set(k, (list = []));
    list.push(id);
  };

  let id = 0;
  const none = new Set<string>();
  sources.forEach((source, p) => {
    const page: DetailPage = { t: source.title, u: source.route, r: [] };
    pages.push(page);
    const route = routeWords(source.route);
    const titleTerms = post(FIELD.title, page.t, p, true);
    const nameTerms = post(FIELD.name, route.name, p, true);
    post(FIELD.folder, route.folders, p, true);
    keyed(titleKeys, page.t, p);
    // A section's text terms are the words its title, page name, heading and excerpt do not already give.
    const section = (text: string, headingTerms: Set<string>, excerptTerms: Set<string>) =>
      textTerms.add(
        text,
        (term) => titleTerms.has(term) || nameTerms.has(term) || headingTerms.has(term) || excerptTerms.has(term),
      );
    const sections = source.sections.read();
    const intro = sections[0]?.level === 1 ? sections[0] : undefined;
    // The page description is the intro's excerpt (README: "meta description and search excerpt").
    const introExcerpt = excerpt(source.description || (intro?.text ?? ''), EXCERPT_LENGTH);
    page.r.push(['', introExcerpt, 1]);
    section(`${source.description} ${intro?.text ?? ''}`, none, post(FIELD.text, introExcerpt, id++, false));
    for (const { level, heading, slug, text } of sections) {
      if (level === 1) continue;
      const x = excerpt(text, EXCERPT_LENGTH);
      const l = level === 3 ? 3 : 2;
      page.r.push(slug === simpleSlug(heading) ? [heading, x, l] : [heading, x, l, slug]);
      const headingTerms = post(FIELD.heading, heading, id, true);
      keyed(headingKeys, heading, id);
      section(text, headingTerms, post(FIELD.text, x, id++, false));
    }
  });
  textTerms.fileInto(words);
  for (const word of words.values()) word.postings[FIELD.text]?.sort((a, b) => a - b);
  return {
    pages,
    words: new Map([...words].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    titleKeys,
    headingKeys,
    fuzzy: fuzzyIndexes(pages),
  };
}

/**
 * The distinctive words of each section's full text, beyond what its title, heading and excerpt give:
 * counted section by section, then filed as text postings, best first by tf-idf, at most
 * TERMS_PER_SECTION per section. The counts are kept in typed arrays: a large site has a hundred
 * thousand sections, far too many to keep a map each. Terms are numbered as first met, and each distinct
 * chunk of text is turned into terms once: a site's text repeats its words far more often than it has them.
 */
class TextTerms {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly documentFrequency: number[] = [];
  /** The numbered terms of each chunk of text met so far. */
  private readonly chunkIds = new Map<string, readonly number[]>();
  /** The current section's count of each term (zero again once the section is filed), and its terms in order. */
  private readonly count: number[] = [];
  private readonly met: number[] = [];
  private readonly terms: Uint32Array[] = [];
  private readonly counts: Uint32Array[] = [];

  /** Counts the next section's text terms, leaving out stop words and those `known` says it already has. */
  add(text: string, known: (term: string) => boolean): void {
    const { count, met } = this;
    for (const chunk of textChunks(text)) {
      for (const t of this.numbered(chunk)) {
        if (count[t] === 0) met.push(t);
        count[t] = (count[t] ?? 0) + 1;
      }
    }
    const terms: number[] = [];
    const counts: number[] = [];
    for (const t of met) {
      const n = count[t] ?? 0;
      count[t] = 0;
      const term = this.names[t] ?? '';
      if (known(term) || STOP_WORDS.has(term)) continue;
      this.documentFrequency[t] = (this.documentFrequency[t] ?? 0) + 1;
      terms.push(t);
      counts.push(n);
    }
    met.length = 0;
    this.terms.push(Uint32Array.from(terms));
    this.counts.push(Uint32Array.from(counts));
  }

  /** A chunk's terms, by number. */
  private numbered(chunk: string): readonly number[] {
    let numbers = this.chunkIds.get(chunk);
    if (numbers === undefined) {
      const terms: string[] = [];
      chunkTerms(chunk, terms);
      numbers = terms.map((term) => {
        let t = this.ids.get(term);
        if (t === undefined) {
          this.ids.set(term, (t = this.names.length));
          this.names.push(term);
          this.documentFrequency.push(0);
          this.count.push(0);
        }
        return t;
      });
      this.chunkIds.set(chunk, numbers);
    }
    return numbers;
  }

  /** Adds each section's best terms to the text postings of `words`. */
  fileInto(words: Map<string, IndexedWord>): void {
    const sections = this.terms.length;
    const perSection = Math.floor(Math.max(TERMS_MIN, Math.min(TERMS_PER_SECTION, TERM_BUDGET / sections)));
    const weight: number[] = [];
    const order: number[] = [];
    this.terms.forEach((terms, id) => {
      const counts = this.counts[id] ?? new Uint32Array();
      weight.length = 0;
      order.length = 0;
      terms.forEach((t, i) => {
        weight.push((1 + Math.log(counts[i] ?? 1)) * Math.log(sections / (this.documentFrequency[t] ?? 1)));
        order.push(i);
      });
      const name = (i: number) => this.names[terms[i] ?? 0] ?? '';
      order.sort((a, b) => (weight[b] ?? 0) - (weight[a] ?? 0) || (name(a) < name(b) ? -1 : 1));
      for (const i of order.slice(0, perSection)) {
        const term = name(i);
        let word = words.get(term);
        if (!word) words.set(term, (word = { postings: [[], [], [], [], []] }));
        word.postings[FIELD.text].push(id);
      }
    });
  }
}

/**
 * Fuse indexes over the distinct words of titles, headings and routes, one per first letter: a typo
 * keeps its first letter (or swaps it with the second), so a query word is fuzzily matched against one
 * or two small lists instead of every word.
 */
function fuzzyIndexes(pages: readonly DetailPage[]): Map<string, unknown> {
  const words = new Set<string>();
  const add = (text: string) => {
    for (const term of indexTerms(text)) {
      if (term.length >= FUZZY_MIN_LENGTH && !STOP_WORDS.has(term) && !/^\d+$/.test(term)) words.add(term);
    }
  };
  for (const page of pages) {
    const route = routeWords(page.u);
    add(`${page.t} ${route.name} ${route.folders}`);
  }
  for (const page of pages) for (const [h] of page.r) add(h);
  const buckets = new Map<string, string[]>();
  for (const word of [...words].sort()) {
    const letter = word[0] ?? '';
    let bucket = buckets.get(letter);
    if (!bucket) buckets.set(letter, (bucket = []));
    bucket.push(word);
  }
  return new Map([...buckets].map(([letter, list]) => [letter, Fuse.createIndex([], list).toJSON()]));
}
