import Fuse from 'fuse.js';
import {
  EXCERPT_LENGTH,
  STOP_WORDS,
  encodePostings,
  indexTerms,
  routeWords,
  simpleSlug,
} from '../../shared/search-text';
import type { SearchData, SearchPage, SearchRecord } from '../../shared/types';
import type { PageSource } from '../content/page-record';
import { excerpt } from '../excerpt';

/**
 * Size budget. Each section's excerpt and its share of text terms are capped, and on a large site the
 * caps shrink so that the whole file stays near one megabyte gzipped: the excerpts share a character
 * budget and the sections a budget of text-term postings. Small sites get the full caps.
 */
const EXCERPT_BUDGET = 1_000_000;
const EXCERPT_MIN = 48;
const TERMS_PER_SECTION = 32;
const TERMS_MIN = 8;
const TERM_BUDGET = 150_000;

/** Shortest title or heading word Fuse may fuzzily match; shorter typos are too ambiguous to correct. */
const FUZZY_MIN_LENGTH = 3;

/**
 * One record per page section (intro, each h2/h3), from the same pass that made the fragments, plus the
 * two indexes the browser cannot make itself: the distinctive words of each section's full text (an
 * inverted index; the text itself does not ship) and Fuse's indexes of title and heading words.
 */
export function buildSearchData(pages: readonly PageSource[]): SearchData {
  const searchPages: SearchPage[] = [];
  const records: SearchRecord[] = [];
  const texts: string[] = [];
  const owner: SearchPage[] = [];
  for (const page of pages) {
    const entry: SearchPage = { t: page.title, u: page.route, n: 0 };
    searchPages.push(entry);
    const sections = page.analysis.sections;
    const intro = sections[0]?.level === 1 ? sections[0] : undefined;
    // The page description is the intro's excerpt (README: "meta description and search excerpt").
    records.push({ h: '', x: page.description || (intro?.text ?? ''), l: 1 });
    texts.push(`${page.description} ${intro?.text ?? ''}`);
    for (const section of sections) {
      if (section.level === 1) continue;
      const record: SearchRecord = { h: section.heading, x: section.text, l: section.level };
      if (section.slug !== simpleSlug(section.heading)) record.a = section.slug;
      records.push(record);
      texts.push(section.text);
    }
    entry.n = records.length - owner.length;
    while (owner.length < records.length) owner.push(entry);
  }
  const length = Math.round(Math.max(EXCERPT_MIN, Math.min(EXCERPT_LENGTH, EXCERPT_BUDGET / records.length)));
  for (const record of records) record.x = excerpt(record.x, length);
  return {
    v: 2,
    pages: searchPages,
    records,
    terms: textTerms(owner, records, texts),
    index: fuzzyIndexes(searchPages, records),
  };
}

/**
 * The inverted index of section text: per section, the words that its title, heading and excerpt do not
 * already give the engine, best first by tf-idf, at most TERMS_PER_SECTION of them.
 */
function textTerms(owner: SearchPage[], records: SearchRecord[], texts: string[]): SearchData['terms'] {
  const counts: Map<string, number>[] = [];
  const documentFrequency = new Map<string, number>();
  records.forEach((record, id) => {
    const page = owner[id];
    const known = new Set(indexTerms(`${page?.t ?? ''} ${routeWords(page?.u ?? '').name} ${record.h} ${record.x}`));
    const count = new Map<string, number>();
    for (const term of indexTerms(texts[id] ?? '')) {
      if (known.has(term) || STOP_WORDS.has(term)) continue;
      count.set(term, (count.get(term) ?? 0) + 1);
    }
    for (const term of count.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    counts.push(count);
  });

  const perSection = Math.floor(Math.max(TERMS_MIN, Math.min(TERMS_PER_SECTION, TERM_BUDGET / records.length)));
  const postings = new Map<string, number[]>();
  counts.forEach((count, id) => {
    const weighted = [...count].map(([term, tf]): [string, number] => [
      term,
      (1 + Math.log(tf)) * Math.log(records.length / (documentFrequency.get(term) ?? 1)),
    ]);
    weighted.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [term] of weighted.slice(0, perSection)) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push(id);
    }
  });
  const terms = [...postings.keys()].sort();
  return { w: terms.join(' '), p: terms.map((t) => encodePostings(postings.get(t) ?? [])).join(' ') };
}

/**
 * Fuse indexes over the distinct words of titles, headings and routes,
 * one per first letter: a typo keeps its first letter (or swaps it with the second), so a query word is
 * fuzzily matched against one or two small lists instead of every word.
 */
function fuzzyIndexes(pages: SearchPage[], records: SearchRecord[]): Record<string, unknown> {
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
  for (const record of records) add(record.h);
  const buckets = new Map<string, string[]>();
  for (const word of [...words].sort()) {
    const letter = word[0] ?? '';
    let bucket = buckets.get(letter);
    if (!bucket) buckets.set(letter, (bucket = []));
    bucket.push(word);
  }
  return Object.fromEntries([...buckets].map(([letter, list]) => [letter, Fuse.createIndex([], list).toJSON()]));
}
