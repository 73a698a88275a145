/*
 * Why this file is long: it is the one module that owns how the search data is laid out in the browser
 * (one sorted vocabulary, flat posting lists per field, per-section score arrays reused between queries)
 * and the one pass that scores a query against that layout. Expanding a query word (exact, prefix, typo,
 * run-together) and scoring read and write the same arrays on every keystroke; as separate modules they
 * would have to hand that layout around or expose it. What a ranking shows is in results.ts, the edit
 * distance in src/shared/edit-distance.ts.
 */
import Fuse, { type FuseIndex } from 'fuse.js';
import { editDistance } from '../../shared/edit-distance';
import type { SearchData, SearchPage, SearchRecord } from '../../shared/types';
import { groupRanked, type Ranked, type SearchResults } from './results';
import {
  STOP_WORDS,
  decodePostings,
  indexTerms,
  routeWords,
  queryTerms,
  stem,
  tokenize,
  type QueryTerm,
} from '../../shared/search-text';

/**
 * Field weights. A word of the page title counts most for the page's intro and somewhat for each of its
 * sections (a section is read in its page's context). The page's name in its URL counts a little less
 * than the title, the folders above it less again; then come the heading and the text.
 */
const W_TITLE_INTRO = 3;
const W_TITLE_SECTION = 1.2;
const W_PAGE_NAME = 0.8;
const W_FOLDER = 0.4;
const W_HEADING = 2.2;
const W_TEXT = 1;
/** Score factor for a section whose heading (or an intro whose title) holds every query word. */
const WHOLE_FIELD = 1.4;

/** How well an index word answers a query word: exact, a prefix of it, or a typo of it (by edits). */
const EXACT = 1;
const PREFIX_BASE = 0.4;
const PREFIX_TOP = 0.85;
/** Match quality of a correction by its number of edits (0 is the word itself, handled as exact). */
const FUZZY = [1, 0.7, 0.5] as const;
/** Words before the last are complete words: a prefix match of them counts for less. */
const INNER_PREFIX = 0.6;
/** Most index words one prefix expands to (the most frequent ones), so "s" stays cheap. */
const PREFIX_LIMIT = 40;
/** Shortest prefix expanded into section text; shorter ones match titles and headings only. */
const TEXT_PREFIX_MIN = 3;
/** Shortest query word corrected for typos, and the edits allowed by length. */
const FUZZY_MIN = 4;
const fuzzyEdits = (length: number) => (length >= 7 ? 2 : 1);

/** Ranking tiers above any score: an exact page title first, then exact section headings. */
const TIER_TITLE = 2;
const TIER_HEADING = 1;

const FUSE_OPTIONS = { includeScore: true, threshold: 0.45, ignoreLocation: true, minMatchCharLength: 2 };

/** Index fields, in the order of their posting lists. */
const TITLE = 0;
const NAME = 1;
const FOLDER = 2;
const HEADING = 3;
const TEXT = 4;

/**
 * Section search over the shipped index, meant to run in a worker.
 *
 * Each query word is looked up exactly and as a prefix in one sorted vocabulary of stemmed words, which
 * holds title, page-name, folder, heading and text postings per word. A word the index barely knows is
 * corrected: by Fuse's fuzzy match over the words of titles and headings (the build's index, one list per
 * first letter), else by edit distance over the text words with the same first letter; corrections are
 * checked by edit distance either way. Two known words typed as one ("timezone") also match the pair.
 * Sections are scored by field weights and word rarity, with a penalty for missing words, ranked (exact
 * title, exact heading, then score) and grouped under their pages.
 */
export class SearchEngine {
  private readonly pages: readonly SearchPage[];
  private readonly records: readonly SearchRecord[];
  /** Records of page p are the ids from `pageStart[p]` to `pageStart[p + 1]`. */
  private readonly pageStart: Uint32Array;
  private readonly pageOf: Uint32Array;
  private readonly vocabulary: string[];
  private readonly titlePostings: Postings;
  private readonly namePostings: Postings;
  private readonly folderPostings: Postings;
  private readonly headingPostings: Postings;
  private readonly textPostings: Postings;
  /** Stemmed word sequences of titles and headings, for the exact-match tiers. */
  private readonly titleKeys: string[];
  private readonly headingKeys: string[];
  private readonly fuzzyIndex: Record<string, unknown>;
  private readonly fuse = new Map<string, Fuse<string>>();
  // Per-query scratch space, reused so that a keystroke allocates little.
  private readonly pageBest: Float64Array;
  private readonly headingBest: Float64Array;
  private readonly textBest: Float64Array;
  private readonly termScore: Float64Array;
  private readonly score: Float64Array;
  private readonly covered: Float64Array;
  private readonly headingMask: Uint32Array;
  private readonly titleMask: Uint32Array;

  constructor(data: SearchData) {
    if (data.v !== 2 || !Array.isArray(data.pages) || !data.terms || !data.index) {
      throw new Error('unknown search data format');
    }
    this.pages = data.pages;
    this.records = data.records;
    const n = this.records.length;

    this.pageStart = new Uint32Array(this.pages.length + 1);
    this.pageOf = new Uint32Array(n);
    this.pages.forEach((page, p) => {
      const start = this.pageStart[p] ?? 0;
      this.pageStart[p + 1] = start + page.n;
      this.pageOf.fill(p, start, start + page.n);
    });
    if (this.pageStart[this.pages.length] !== n) throw new Error('search pages and records do not agree');

    // Titles, page names, headings and excerpts are indexed here; the rest of the text was at build time.
    const wordIds = new Map<string, number>();
    const wordId = (word: string) => {
      let w = wordIds.get(word);
      if (w === undefined) wordIds.set(word, (w = wordIds.size));
      return w;
    };
    const fields = [[], [], [], [], []].map(() => ({ words: [] as number[], ids: [] as number[] }));
    const stamps: number[] = [];
    let stamp = 0;
    const add = (field: number, text: string, id: number, keepStopWords = true) => {
      const lists = fields[field];
      stamp++;
      for (const word of indexTerms(text)) {
        if (!lists || (!keepStopWords && STOP_WORDS.has(word))) continue;
        const w = wordId(word);
        if (stamps[w] === stamp) continue; // once per text
        stamps[w] = stamp;
        lists.words.push(w);
        lists.ids.push(id);
      }
    };
    this.pages.forEach((page, p) => {
      const route = routeWords(page.u);
      add(TITLE, page.t, p);
      add(NAME, route.name, p);
      add(FOLDER, route.folders, p);
    });
    this.records.forEach((record, id) => {
      add(HEADING, record.h, id);
      add(TEXT, record.x, id, false);
    });
    const text = fields[TEXT] ?? { words: [], ids: [] };
    const lists = data.terms.p.split(' ');
    (data.terms.w === '' ? [] : data.terms.w.split(' ')).forEach((word, i) => {
      const w = wordId(word);
      for (const id of decodePostings(lists[i] ?? '')) {
        text.words.push(w);
        text.ids.push(id);
      }
    });

    this.vocabulary = [...wordIds.keys()].sort();
    const rank = new Uint32Array(this.vocabulary.length);
    this.vocabulary.forEach((word, r) => (rank[wordIds.get(word) ?? 0] = r));
    [this.titlePostings, this.namePostings, this.folderPostings, this.headingPostings, this.textPostings] = fields.map(
      (f) => Postings.build(f.words, f.ids, rank),
    ) as [Postings, Postings, Postings, Postings, Postings];
    this.titleKeys = this.pages.map((page) => key(page.t));
    this.headingKeys = this.records.map((record) => key(record.h));
    this.fuzzyIndex = data.index;

    this.pageBest = new Float64Array(this.pages.length);
    this.headingBest = new Float64Array(n);
    this.textBest = new Float64Array(n);
    this.termScore = new Float64Array(n);
    this.score = new Float64Array(n);
    this.covered = new Float64Array(n);
    this.headingMask = new Uint32Array(n);
    this.titleMask = new Uint32Array(this.pages.length);
  }

  /** Number of sections in the index. */
  get size(): number {
    return this.records.length;
  }

  search(query: string): SearchResults {
    const typed = dedupe(queryTerms(query)).slice(0, 16);
    if (typed.length === 0) return { groups: [], terms: [], total: 0 };
    const onlyStopWords = typed.every((t) => t.stop);
    const highlight = new Set<string>();
    const touched: number[] = [];
    let requiredMask = 0;
    let requiredWeight = 0;

    typed.forEach((queryTerm, i) => {
      const required = onlyStopWords || !queryTerm.stop;
      const last = i === typed.length - 1;
      // Stop words among other words are left out, but the last word may be the start of another word.
      if (!required && !last) return;
      if (required) highlight.add(queryTerm.word).add(queryTerm.term);
      const bit = required ? 1 << i : 0;
      let hits = this.scoreTerm(this.expand(queryTerm, last, highlight), bit);
      const parts = this.split(queryTerm);
      if (parts) {
        const scores = this.takeScores(hits);
        const head = this.takeScores(this.scoreTerm(this.expand(parts[0], false, highlight), bit));
        const tail = this.takeScores(this.scoreTerm(this.expand(parts[1], last, highlight), bit));
        for (const [id, value] of head) {
          const other = tail.get(id);
          if (other !== undefined) scores.set(id, Math.max(scores.get(id) ?? 0, (value + other) / 2));
        }
        hits = [...scores.keys()];
        for (const [id, value] of scores) this.termScore[id] = value;
        highlight.add(parts[0].word).add(parts[1].word);
      }
      // Rarer words weigh more; a stop word adds a little and is not required.
      const weight = required ? Math.log(1 + this.records.length / Math.max(hits.length, 1)) : 0.3;
      if (required) {
        requiredMask |= bit;
        requiredWeight += weight;
      }
      for (const id of hits) {
        if (this.score[id] === 0 && this.covered[id] === 0) touched.push(id);
        this.score[id] = (this.score[id] ?? 0) + weight * (this.termScore[id] ?? 0);
        if (required) this.covered[id] = (this.covered[id] ?? 0) + weight;
        this.termScore[id] = 0;
      }
    });

    const queryKey = typed.map((t) => t.term).join(' ');
    const ranked: Ranked[] = [];
    for (const id of touched) {
      const record = this.records[id];
      const p = this.pageOf[id] ?? 0;
      if (!record) continue;
      const coverage = requiredWeight > 0 ? (this.covered[id] ?? 0) / requiredWeight : 1;
      let value = (this.score[id] ?? 0) * coverage * coverage;
      if (record.l !== 1 && this.headingMask[id] === requiredMask) value *= WHOLE_FIELD;
      if (record.l === 1 && this.titleMask[p] === requiredMask) value *= WHOLE_FIELD;
      let tier = 0;
      if (record.l === 1 && this.titleKeys[p] === queryKey) tier = TIER_TITLE;
      else if (record.l !== 1 && this.headingKeys[id] === queryKey) tier = TIER_HEADING;
      if (value > 0) ranked.push({ id, tier, value });
    }
    const titled = new Set<number>();
    for (const id of touched) {
      const p = this.pageOf[id] ?? 0;
      if (requiredMask !== 0 && this.titleMask[p] === requiredMask) titled.add(p);
    }
    for (const id of touched) {
      this.score[id] = 0;
      this.covered[id] = 0;
      this.headingMask[id] = 0;
      this.titleMask[this.pageOf[id] ?? 0] = 0;
    }
    ranked.sort((a, b) => b.tier - a.tier || b.value - a.value || a.id - b.id);

    const groups = groupRanked(ranked, titled, this.records, this.pages, this.pageOf);
    return {
      groups,
      terms: [...highlight].filter((t) => t.length > 0),
      total: groups.reduce((sum, g) => sum + g.hits.length, 0),
    };
  }

  /**
   * Scores every section one query word's matches reach into `termScore`: the best match quality per
   * field, fields added up by weight. Returns the sections reached.
   */
  private scoreTerm(matches: Map<number, number>, bit: number): number[] {
    const pages: number[] = [];
    const headings: number[] = [];
    const texts: number[] = [];
    const raise = (best: Float64Array, seen: number[], id: number, quality: number) => {
      const current = best[id] ?? 0;
      if (current === 0) seen.push(id);
      if (current < quality) best[id] = quality;
    };
    for (const [v, quality] of matches) {
      this.titlePostings.each(v, (p) => raise(this.pageBest, pages, p, quality));
      this.namePostings.each(v, (p) => raise(this.pageBest, pages, p, quality * W_PAGE_NAME));
      this.folderPostings.each(v, (p) => raise(this.pageBest, pages, p, quality * W_FOLDER));
      this.headingPostings.each(v, (id) => raise(this.headingBest, headings, id, quality));
      if (quality === EXACT || (this.vocabulary[v]?.length ?? 0) >= TEXT_PREFIX_MIN) {
        this.textPostings.each(v, (id) => raise(this.textBest, texts, id, quality));
      }
    }

    const hits: number[] = [];
    const add = (id: number, value: number) => {
      if (this.termScore[id] === 0) hits.push(id);
      this.termScore[id] = (this.termScore[id] ?? 0) + value;
    };
    for (const p of pages) {
      const quality = this.pageBest[p] ?? 0;
      this.pageBest[p] = 0;
      this.titleMask[p] = (this.titleMask[p] ?? 0) | bit;
      const end = this.pageStart[p + 1] ?? 0;
      for (let id = this.pageStart[p] ?? end; id < end; id++) {
        add(id, quality * (this.records[id]?.l === 1 ? W_TITLE_INTRO : W_TITLE_SECTION));
      }
    }
    for (const id of headings) {
      add(id, (this.headingBest[id] ?? 0) * W_HEADING);
      this.headingBest[id] = 0;
      this.headingMask[id] = (this.headingMask[id] ?? 0) | bit;
    }
    for (const id of texts) {
      add(id, (this.textBest[id] ?? 0) * W_TEXT);
      this.textBest[id] = 0;
    }
    return hits;
  }

  /**
   * The vocabulary words that answer one query word, with how well: the word itself, the words it begins
   * (the reader may still be typing), and, for a word the index does not know, its corrections.
   */
  private expand(queryTerm: QueryTerm, last: boolean, highlight: Set<string>): Map<number, number> {
    const { term, word } = queryTerm;
    const matches = new Map<number, number>();
    const put = (v: number, quality: number) => {
      if ((matches.get(v) ?? 0) < quality) matches.set(v, quality);
    };
    const start = this.lowerBound(term);
    const exact = this.vocabulary[start] === term ? start : -1;
    if (exact >= 0) put(exact, EXACT);
    if (word !== term) {
      const whole = this.lowerBound(word);
      if (this.vocabulary[whole] === word) put(whole, EXACT);
    }

    const prefixed: number[] = [];
    for (let v = exact >= 0 ? start + 1 : start; v < this.vocabulary.length; v++) {
      if (!this.vocabulary[v]?.startsWith(term)) break;
      prefixed.push(v);
    }
    if (prefixed.length > PREFIX_LIMIT) {
      prefixed.sort((a, b) => this.frequency(b) - this.frequency(a));
      prefixed.length = PREFIX_LIMIT;
    }
    for (const v of prefixed) {
      const ratio = term.length / (this.vocabulary[v]?.length ?? 1);
      put(v, (PREFIX_BASE + (PREFIX_TOP - PREFIX_BASE) * ratio) * (last ? 1 : INNER_PREFIX));
    }

    // Typos are corrected only for a word the index barely knows, even as the start of a word.
    let known = exact >= 0 ? this.frequency(exact) : 0;
    for (const v of prefixed) known += this.frequency(v);
    if (term.length >= FUZZY_MIN && known <= 2) {
      const allowed = fuzzyEdits(term.length);
      // A typo keeps its first letter, or swaps it with the second: those are the letters looked under.
      const letters = new Set([term[0] ?? '', term[1] ?? '']);
      const correct = (candidate: string, v: number) => {
        // An unfinished last word is also compared with the candidate's beginning of about its length.
        const distance = editDistance(term, candidate, allowed, last);
        if (distance === 0 || distance > allowed || this.vocabulary[v] !== candidate) return false;
        put(v, FUZZY[distance] ?? 0);
        highlight.add(candidate);
        return true;
      };
      // Fuse over the words of titles and headings, where the names of things are.
      let corrected = false;
      for (const letter of letters) {
        for (const result of this.fuzzy(letter)?.search(term, { limit: 16 }) ?? []) {
          if (correct(result.item, this.lowerBound(result.item))) corrected = true;
        }
      }
      // Otherwise the words of the text with the same first letter and about the same length.
      for (const letter of corrected ? [] : letters) {
        const end = this.lowerBound(String.fromCharCode(letter.charCodeAt(0) + 1));
        for (let v = this.lowerBound(letter); v < end; v++) {
          const candidate = this.vocabulary[v] ?? '';
          if (candidate.length >= term.length - allowed && (last || candidate.length <= term.length + allowed)) {
            correct(candidate, v);
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
  private split(queryTerm: QueryTerm): [QueryTerm, QueryTerm] | undefined {
    const { term } = queryTerm;
    if (queryTerm.stop || term.length < 6) return undefined;
    const at = this.lowerBound(term);
    const whole = this.vocabulary[at] === term ? this.frequency(at) : 0;
    let best: [QueryTerm, QueryTerm] | undefined;
    let bestFrequency = whole;
    for (let i = 3; i <= term.length - 3; i++) {
      const head = term.slice(0, i);
      const tail = stem(term.slice(i));
      const h = this.lowerBound(head);
      const t = this.lowerBound(tail);
      if (this.vocabulary[h] !== head || this.vocabulary[t] !== tail) continue;
      const frequency = Math.min(this.frequency(h), this.frequency(t));
      if (frequency > bestFrequency) {
        best = [
          { word: head, term: head, stop: false },
          { word: term.slice(i), term: tail, stop: false },
        ];
        bestFrequency = frequency;
      }
    }
    return best;
  }

  /** Moves the scores `scoreTerm` left in `termScore` into a map. */
  private takeScores(hits: number[]): Map<number, number> {
    const scores = new Map<number, number>();
    for (const id of hits) {
      scores.set(id, this.termScore[id] ?? 0);
      this.termScore[id] = 0;
    }
    return scores;
  }

  /** Fuse over the title and heading words starting with one letter, built from the shipped index. */
  private fuzzy(letter: string): Fuse<string> | undefined {
    let fuse = this.fuse.get(letter);
    const index = this.fuzzyIndex[letter] as Parameters<typeof Fuse.parseIndex>[0] | undefined;
    if (!fuse && index) {
      const words = index.records.map((r) => r.v ?? '');
      fuse = new Fuse(words, FUSE_OPTIONS, Fuse.parseIndex<string>(index) as FuseIndex<string>);
      this.fuse.set(letter, fuse);
    }
    return fuse;
  }

  /** Number of titles, page names, headings and texts a vocabulary word appears in. */
  private frequency(v: number): number {
    return (
      this.titlePostings.count(v) +
      this.namePostings.count(v) +
      this.folderPostings.count(v) +
      this.headingPostings.count(v) +
      this.textPostings.count(v)
    );
  }

  private lowerBound(word: string): number {
    let low = 0;
    let high = this.vocabulary.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.vocabulary[mid] ?? '') < word) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** The posting lists of one field for every vocabulary word, stored flat: word v owns `ids[offsets[v]…offsets[v + 1]]`. */
class Postings {
  private constructor(
    private readonly offsets: Uint32Array,
    private readonly ids: Uint32Array,
  ) {}

  /** From parallel lists of (word, id) pairs; `rank` gives each word's vocabulary position. */
  static build(words: readonly number[], ids: readonly number[], rank: Uint32Array): Postings {
    const offsets = new Uint32Array(rank.length + 1);
    for (const w of words) {
      const v = (rank[w] ?? 0) + 1;
      offsets[v] = (offsets[v] ?? 0) + 1;
    }
    for (let v = 0; v < rank.length; v++) offsets[v + 1] = (offsets[v + 1] ?? 0) + (offsets[v] ?? 0);
    const fill = offsets.slice(0, rank.length);
    const flat = new Uint32Array(ids.length);
    words.forEach((w, i) => {
      const v = rank[w] ?? 0;
      flat[fill[v] ?? 0] = ids[i] ?? 0;
      fill[v] = (fill[v] ?? 0) + 1;
    });
    return new Postings(offsets, flat);
  }

  count(v: number): number {
    return (this.offsets[v + 1] ?? 0) - (this.offsets[v] ?? 0);
  }

  each(v: number, visit: (id: number) => void): void {
    const end = this.offsets[v + 1] ?? 0;
    for (let k = this.offsets[v] ?? end; k < end; k++) visit(this.ids[k] ?? 0);
  }
}

/** Stemmed words of a title or heading, for "the query is exactly this title". */
function key(text: string): string {
  return tokenize(text).map(stem).join(' ');
}

function dedupe(terms: QueryTerm[]): QueryTerm[] {
  const seen = new Set<string>();
  return terms.filter((t) => !seen.has(t.term) && seen.add(t.term));
}
