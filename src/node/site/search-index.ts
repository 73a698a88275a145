import Fuse from 'fuse.js';
import {
  EXCERPT_LENGTH,
  STOP_WORDS,
  indexTerms,
  routeWords,
  simpleSlug,
  tokenize,
  stem,
} from '../../shared/search-text';
import type { DetailPage } from '../../shared/search-layout';
import type { PageSource } from '../content/page-record';
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
  const texts: string[] = [];
  const words = new Map<string, IndexedWord>();
  const titleKeys = new Map<string, number[]>();
  const headingKeys = new Map<string, number[]>();
  const post = (field: number, text: string, id: number, keepStopWords: boolean) => {
    for (const term of new Set(indexTerms(text))) {
      if (!keepStopWords && STOP_WORDS.has(term)) continue;
      let word = words.get(term);
      if (!word) words.set(term, (word = { postings: [[], [], [], [], []] }));
      word.postings[field]?.push(id);
    }
  };
  const keyed = (keys: Map<string, number[]>, text: string, id: number) => {
    const k = key(text);
    if (k === '') return;
    let list = keys.get(k);
    if (!list) keys.set(k, (list = []));
    list.push(id);
  };

  let id = 0;
  sources.forEach((source, p) => {
    const page: DetailPage = { t: source.title, u: source.route, r: [] };
    pages.push(page);
    const route = routeWords(source.route);
    post(FIELD.title, page.t, p, true);
    post(FIELD.name, route.name, p, true);
    post(FIELD.folder, route.folders, p, true);
    keyed(titleKeys, page.t, p);
    const sections = source.analysis.sections;
    const intro = sections[0]?.level === 1 ? sections[0] : undefined;
    // The page description is the intro's excerpt (README: "meta description and search excerpt").
    const introExcerpt = excerpt(source.description || (intro?.text ?? ''), EXCERPT_LENGTH);
    page.r.push(['', introExcerpt, 1]);
    post(FIELD.text, introExcerpt, id++, false);
    texts.push(`${source.description} ${intro?.text ?? ''}`);
    for (const section of sections) {
      if (section.level === 1) continue;
      const level = section.level === 3 ? 3 : 2;
      const x = excerpt(section.text, EXCERPT_LENGTH);
      page.r.push(
        section.slug === simpleSlug(section.heading)
          ? [section.heading, x, level]
          : [section.heading, x, level, section.slug],
      );
      post(FIELD.heading, section.heading, id, true);
      keyed(headingKeys, section.heading, id);
      post(FIELD.text, x, id++, false);
      texts.push(section.text);
    }
  });
  addTextTerms(pages, words, texts);
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
 * Adds to the text postings, per section, the words of its full text that its title, heading and excerpt
 * do not already give, best first by tf-idf, at most TERMS_PER_SECTION of them.
 */
function addTextTerms(pages: readonly DetailPage[], words: Map<string, IndexedWord>, texts: readonly string[]): void {
  // Per section, its terms (by number) and how often each occurs, in typed arrays: a large site has a
  // hundred thousand sections, far too many to keep a map each.
  const termIds = new Map<string, number>();
  const termNames: string[] = [];
  const documentFrequency: number[] = [];
  const sectionTerms: Uint32Array[] = [];
  const sectionCounts: Uint32Array[] = [];
  for (const page of pages) {
    const route = routeWords(page.u).name;
    for (const [h, x] of page.r) {
      const known = new Set(indexTerms(`${page.t} ${route} ${h} ${x}`));
      const count = new Map<number, number>();
      for (const term of indexTerms(texts[sectionTerms.length] ?? '')) {
        if (known.has(term) || STOP_WORDS.has(term)) continue;
        let t = termIds.get(term);
        if (t === undefined) {
          termIds.set(term, (t = termNames.length));
          termNames.push(term);
          documentFrequency.push(0);
        }
        count.set(t, (count.get(t) ?? 0) + 1);
      }
      for (const t of count.keys()) documentFrequency[t] = (documentFrequency[t] ?? 0) + 1;
      sectionTerms.push(Uint32Array.from(count.keys()));
      sectionCounts.push(Uint32Array.from(count.values()));
    }
  }
  const sections = sectionTerms.length;
  const perSection = Math.floor(Math.max(TERMS_MIN, Math.min(TERMS_PER_SECTION, TERM_BUDGET / sections)));
  sectionTerms.forEach((terms, id) => {
    const counts = sectionCounts[id] ?? new Uint32Array();
    const weighted = [...terms].map((t, i): [string, number] => [
      termNames[t] ?? '',
      (1 + Math.log(counts[i] ?? 1)) * Math.log(sections / (documentFrequency[t] ?? 1)),
    ]);
    weighted.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [term] of weighted.slice(0, perSection)) {
      let word = words.get(term);
      if (!word) words.set(term, (word = { postings: [[], [], [], [], []] }));
      word.postings[FIELD.text].push(id);
    }
  });
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

/** Stemmed words of a title or heading, for "the query is exactly this title". */
export function key(text: string): string {
  return tokenize(text).map(stem).join(' ');
}
