/*
 * Why this file is long: it is the one pass that scores a query against the index (src/client/search/
 * shards.ts keeps the loaded data, src/shared/search-layout.ts says how it is cut into files). Expanding
 * a query word (exact, prefix, typo, run-together) and scoring read and write the same per-section score
 * arrays on every keystroke; as separate modules they would have to hand those arrays around. What a
 * ranking shows is in results.ts, the edit distance in src/shared/edit-distance.ts.
 */
import Fuse, { type FuseIndex } from 'fuse.js';
import { editDistance } from '../../shared/edit-distance';
import { shardKindOf, type SearchEntry } from '../../shared/search-layout';
import { MAX_HITS, drawGroups, selectRanked, type Ranked, type SearchResults, type Selection } from './results';
import { SearchShards, type LetterView } from './shards';
import { queryTerms, stem, type QueryTerm } from '../../shared/search-text';
import {
  W_FOLDER,
  W_HEADING,
  W_PAGE_NAME,
  W_TEXT,
  W_TITLE_INTRO,
  W_TITLE_SECTION,
  WHOLE_FIELD,
} from '../../shared/search-weights';

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

const NO_RESULTS: SearchResults = { groups: [], terms: [], total: 0 };

/** What one run of a query gives: its results, or the files it needs first. */
export interface SearchOutcome {
  /** With files missing: empty, or when only results' details are missing, the leading groups drawable. */
  results: SearchResults;
  /** Shard files (as the entry names them) the query reached and did not have, in rank order. */
  missing: string[];
}

/** A query's ranking, as far as it does not depend on the details of its results. */
interface Ranking {
  query: string;
  selections: Selection[];
  terms: string[];
}

/** Detail files loaded first when a query needs more: about the first screen of results. */
const FIRST_DETAILS = 6;

/**
 * Section search, meant to run in a worker, over an index that arrives in shards.
 *
 * Each query word is looked up exactly and as a prefix in the sorted vocabulary of stemmed words of its
 * first character, which counts every word's postings. A word the index barely knows is corrected: by
 * Fuse's fuzzy match over the words of titles and headings (the build's index, one list per first
 * letter), else by edit distance over the words with the same first letter; corrections are checked by
 * edit distance either way. Two known words typed as one ("timezone") also match the pair. The words
 * found bring their postings (title, page name, folder, heading, text), and sections are scored by field
 * weights and word rarity with a penalty for missing words, ranked (exact title, exact heading, then
 * score) and grouped under their pages.
 */
export class SearchEngine {
  private readonly shards: SearchShards;
  // Per-query scratch space, reused so that a keystroke allocates little.
  private readonly pageBest: Float64Array;
  private readonly headingBest: Float64Array;
  private readonly textBest: Float64Array;
  private readonly termScore: Float64Array;
  private readonly score: Float64Array;
  private readonly tier: Uint8Array;
  private readonly covered: Float64Array;
  private readonly headingMask: Uint32Array;
  private readonly titleMask: Uint32Array;
  /**
   * The last query ranked over every file it reached. Its details arrive in later runs (the first screen,
   * then the rest), and a common prefix reaches tens of thousands of sections: those runs draw this
   * ranking instead of ranking again.
   */
  private lastRanking: Ranking | undefined;

  /** `entry` as `parseSearchEntry` (src/client/data/parse.ts) checked it. */
  constructor(entry: SearchEntry) {
    this.shards = new SearchShards(entry);
    const n = this.shards.size;
    this.pageBest = new Float64Array(this.shards.pages);
    this.headingBest = new Float64Array(n);
    this.textBest = new Float64Array(n);
    this.termScore = new Float64Array(n);
    this.score = new Float64Array(n);
    this.tier = new Uint8Array(n);
    this.covered = new Float64Array(n);
    this.headingMask = new Uint32Array(n);
    this.titleMask = new Uint32Array(this.shards.pages);
  }

  /** Number of sections in the index. */
  get size(): number {
    return this.shards.size;
  }

  /** Shard files no search has loaded yet. */
  unloaded(): string[] {
    return this.shards.unloaded();
  }

  /** Takes in a shard file a search reported missing; throws `WrongContentError` if the text is not one. */
  read(file: string, text: string): void {
    this.shards.read(file, text);
    // Letters and postings change what a query ranks; details only change what its results show.
    if (shardKindOf(file) !== 'details') this.lastRanking = undefined;
  }

  search(query: string): SearchOutcome {
    if (this.lastRanking?.query !== query) {
      const ranking = this.rank(query);
      // The ranking is only right once every letter and posting shard it reached is loaded; only then are
      // the details of the sections it shows asked for.
      const unranked = this.shards.takeMissing();
      if (unranked.length > 0) return { results: NO_RESULTS, missing: unranked };
      this.lastRanking = ranking;
    }
    const { selections, terms } = this.lastRanking;
    const groups = drawGroups(selections, this.shards.pageStart, (p, sections) => this.shards.detail(p, sections));
    return {
      results: { groups, terms, total: groups.reduce((sum, g) => sum + g.hits.length, 0) },
      missing: this.shards.takeMissing(),
    };
  }

  /** What a query shows, before its details: the sections chosen, grouped by page, and the words to highlight. */
  private rank(query: string): Ranking {
    const typed = dedupe(queryTerms(query)).slice(0, 16);
    if (typed.length === 0) return { query, selections: [], terms: [] };
    const { pageOf, pageStart } = this.shards;
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
      const weight = required ? Math.log(1 + this.shards.size / Math.max(hits.length, 1)) : 0.3;
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

    // The query's words as a phrase key (`phraseKey`): the titles and headings that are exactly the query.
    const exact = this.shards.exact(typed.map((t) => t.term).join(' '));
    const exactTitles = new Set(exact.titles);
    const exactHeadings = new Set(exact.headings);
    // Each section's value and tier go into arrays by id, not an object each: a common prefix reaches
    // tens of thousands of sections, of which a few hundred at most are looked at again.
    const { score: value, tier } = this;
    const ranked: number[] = [];
    for (const id of touched) {
      const p = pageOf[id] ?? 0;
      const intro = pageStart[p] === id;
      const coverage = requiredWeight > 0 ? (this.covered[id] ?? 0) / requiredWeight : 1;
      let v = (this.score[id] ?? 0) * coverage * coverage;
      if (!intro && this.headingMask[id] === requiredMask) v *= WHOLE_FIELD;
      if (intro && this.titleMask[p] === requiredMask) v *= WHOLE_FIELD;
      value[id] = v;
      if (intro && exactTitles.has(p)) tier[id] = TIER_TITLE;
      else if (!intro && exactHeadings.has(id)) tier[id] = TIER_HEADING;
      if (v > 0) ranked.push(id);
    }
    const titled = new Set<number>();
    for (const id of touched) {
      const p = pageOf[id] ?? 0;
      if (requiredMask !== 0 && this.titleMask[p] === requiredMask) titled.add(p);
    }
    const selections = selectLeading({ ids: ranked, tier, value }, titled, pageOf, pageStart);
    for (const id of touched) {
      this.score[id] = 0;
      this.tier[id] = 0;
      this.covered[id] = 0;
      this.headingMask[id] = 0;
      this.titleMask[pageOf[id] ?? 0] = 0;
    }

    return { query, selections, terms: [...highlight].filter((t) => t.length > 0) };
  }

  /**
   * Scores every section one query word's matches reach into `termScore`: the best match quality per
   * field, fields added up by weight. Returns the sections reached.
   */
  private scoreTerm(matches: Map<string, number>, bit: number): number[] {
    const { pageStart } = this.shards;
    const pages: number[] = [];
    const headings: number[] = [];
    const texts: number[] = [];
    const raise = (best: Float64Array, seen: number[], ids: readonly number[], quality: number) => {
      for (const id of ids) {
        const current = best[id] ?? 0;
        if (current === 0) seen.push(id);
        if (current < quality) best[id] = quality;
      }
    };
    for (const [word, quality] of matches) {
      const head = this.shards.headPostings(word);
      raise(this.pageBest, pages, head.title, quality);
      raise(this.pageBest, pages, head.name, quality * W_PAGE_NAME);
      raise(this.pageBest, pages, head.folder, quality * W_FOLDER);
      raise(this.headingBest, headings, head.heading, quality);
      if (quality === EXACT || word.length >= TEXT_PREFIX_MIN) {
        raise(this.textBest, texts, this.shards.textPostings(word), quality);
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
      const start = pageStart[p] ?? 0;
      const end = pageStart[p + 1] ?? 0;
      for (let id = start; id < end; id++) add(id, quality * (id === start ? W_TITLE_INTRO : W_TITLE_SECTION));
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
  private expand(queryTerm: QueryTerm, last: boolean, highlight: Set<string>): Map<string, number> {
    const { term, word } = queryTerm;
    const matches = new Map<string, number>();
    const put = (w: string, quality: number) => {
      if ((matches.get(w) ?? 0) < quality) matches.set(w, quality);
    };
    const letter = this.shards.letter(term);
    // Until the vocabulary is loaded it cannot say the word is there; it usually is.
    if (!letter) this.shards.expectPostings(term);
    const words = letter?.words ?? [];
    const start = letter?.lowerBound(term) ?? 0;
    const exact = words[start] === term;
    if (exact) put(term, EXACT);
    if (word !== term && (this.shards.letter(word)?.frequency(word) ?? 0) > 0) put(word, EXACT);

    const prefixed: number[] = [];
    for (let v = exact ? start + 1 : start; v < words.length; v++) {
      if (!words[v]?.startsWith(term)) break;
      prefixed.push(v);
    }
    if (letter && prefixed.length > PREFIX_LIMIT) {
      prefixed.sort((a, b) => letter.frequencyAt(b) - letter.frequencyAt(a));
      prefixed.length = PREFIX_LIMIT;
    }
    for (const v of prefixed) {
      const ratio = term.length / (words[v]?.length ?? 1);
      put(words[v] ?? '', (PREFIX_BASE + (PREFIX_TOP - PREFIX_BASE) * ratio) * (last ? 1 : INNER_PREFIX));
    }

    // Typos are corrected only for a word the index barely knows, even as the start of a word.
    let known = exact ? (letter?.frequencyAt(start) ?? 0) : 0;
    for (const v of prefixed) known += letter?.frequencyAt(v) ?? 0;
    if (term.length >= FUZZY_MIN && known <= 2) {
      const allowed = fuzzyEdits(term.length);
      // A typo keeps its first letter, or swaps it with the second: those are the letters looked under.
      const letters = new Set([term[0] ?? '', term[1] ?? '']);
      const correct = (candidate: string) => {
        // An unfinished last word is also compared with the candidate's beginning of about its length.
        const distance = editDistance(term, candidate, allowed, last);
        if (distance === 0 || distance > allowed || !this.shards.letter(candidate)?.frequency(candidate)) return false;
        put(candidate, FUZZY[distance] ?? 0);
        highlight.add(candidate);
        return true;
      };
      // Fuse over the words of titles and headings, where the names of things are.
      let corrected = false;
      for (const first of letters) {
        for (const result of this.fuzzy(first)?.search(term, { limit: 16 }) ?? []) {
          if (correct(result.item)) corrected = true;
        }
      }
      // Otherwise the words of the text with the same first letter and about the same length.
      for (const first of corrected ? [] : letters) {
        const shard = this.shards.letter(first);
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
  private split(queryTerm: QueryTerm): [QueryTerm, QueryTerm] | undefined {
    const { term } = queryTerm;
    if (queryTerm.stop || term.length < 6) return undefined;
    const frequency = (word: string) => this.shards.letter(word)?.frequency(word) ?? 0;
    let best: [QueryTerm, QueryTerm] | undefined;
    let bestFrequency = frequency(term);
    for (let i = 3; i <= term.length - 3; i++) {
      const head = term.slice(0, i);
      const tail = stem(term.slice(i));
      const pair = Math.min(frequency(head), frequency(tail));
      if (pair > bestFrequency) {
        best = [
          { word: head, term: head, stop: false },
          { word: term.slice(i), term: tail, stop: false },
        ];
        bestFrequency = pair;
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

  /** Fuse over the title and heading words starting with one letter, from that letter's shard. */
  private fuzzy(letter: string): Fuse<string> | undefined {
    const shard: LetterView | undefined = this.shards.letter(letter);
    const index = shard?.fuzzyIndex(letter) as Parameters<typeof Fuse.parseIndex>[0] | undefined;
    if (!shard || !index) return undefined;
    return shard.cached(letter, () => {
      const words = index.records.map((r) => r.v ?? '');
      return new Fuse(words, FUSE_OPTIONS, Fuse.parseIndex<string>(index) as FuseIndex<string>);
    });
  }
}

/**
 * Runs a query until it has every file it reaches: each run names the shards it lacked, `load` fetches
 * them into the engine, and the next run goes further (letters, then postings, then details). When only
 * the results' details are missing, `onFirst` gets the top of the list that can be drawn already: the
 * results the term shards carried, else those of the first screen's detail files, loaded first. The rest
 * loads while that top is drawn. `stale` ends the work early when a newer query has arrived.
 */
export async function runQuery(
  engine: SearchEngine,
  query: string,
  load: (files: string[]) => Promise<void>,
  stale: () => boolean = () => false,
  onFirst: (results: SearchResults) => void = () => undefined,
): Promise<SearchResults | undefined> {
  let firstShown = false;
  // Each run loads at least one new file, and a query reaches a bounded number of them.
  for (let run = 0; run < 16; run++) {
    // A query the reader has typed past is not run again: a run over the postings just loaded (a short
    // prefix reaches many) would hold up the newer query.
    if (stale()) return undefined;
    const outcome = engine.search(query);
    if (outcome.missing.length === 0) return outcome.results;
    const ranked = outcome.missing.every((file) => shardKindOf(file) === 'details');
    if (ranked && !firstShown && outcome.results.total > 0) {
      firstShown = true;
      onFirst(outcome.results);
    } else if (ranked && !firstShown && outcome.missing.length > FIRST_DETAILS) {
      firstShown = true;
      await load(outcome.missing.slice(0, FIRST_DETAILS));
      if (stale()) return undefined;
      const first = engine.search(query).results;
      if (first.total > 0) onFirst(first);
      continue;
    }
    await load(outcome.missing);
  }
  throw new Error(`the search for "${query}" kept asking for files`);
}

/** Sections by id with their tier and value, as the engine scored them; `ids` are those with a value. */
export interface Scored {
  ids: number[];
  tier: ArrayLike<number>;
  value: ArrayLike<number>;
}

/** Sections ranked first by a partial sort, at least this many; more when these do not fill the list. */
const LEADING = 256;

/**
 * What `selectRanked` makes of the whole ranking, from its head only: a common word reaches tens of
 * thousands of sections, and sorting them all would be most of a query's time. The list is filled from
 * the leading sections in rank order, so the same head gives the same list; when the head runs out
 * before the list is full (many sections of few pages), a longer head is taken.
 */
export function selectLeading(
  scored: Scored,
  titled: ReadonlySet<number>,
  pageOf: Uint32Array,
  pageStart: Uint32Array,
): Selection[] {
  const { ids, tier, value } = scored;
  // Negative when section a ranks before section b: by tier, then value, then the earlier section.
  const before = (a: number, b: number) =>
    (tier[b] ?? 0) - (tier[a] ?? 0) || (value[b] ?? 0) - (value[a] ?? 0) || a - b;
  const ranked = (head: number[]): Ranked[] => head.map((id) => ({ id, tier: tier[id] ?? 0, value: value[id] ?? 0 }));
  for (let count = LEADING; ; count *= 4) {
    if (count >= ids.length) return selectRanked(ranked([...ids].sort(before)), titled, pageOf, pageStart);
    const selection = selectRanked(ranked(leading(ids, count, before)), titled, pageOf, pageStart);
    if (selection.reduce((n, s) => n + s.hits.length, 0) >= MAX_HITS) return selection;
  }
}

/** The first `count` ids by `before`, in order, kept in a bounded heap whose root is the last of them. */
function leading(ids: readonly number[], count: number, before: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  const sink = (at: number) => {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let last = at;
      if (left < heap.length && before(heap[left] ?? 0, heap[last] ?? 0) > 0) last = left;
      if (right < heap.length && before(heap[right] ?? 0, heap[last] ?? 0) > 0) last = right;
      if (last === at) return;
      [heap[at], heap[last]] = [heap[last] ?? 0, heap[at] ?? 0];
      at = last;
    }
  };
  for (const id of ids) {
    if (heap.length < count) {
      heap.push(id);
      for (let at = heap.length - 1; at > 0;) {
        const parent = (at - 1) >> 1;
        if (before(heap[at] ?? 0, heap[parent] ?? 0) <= 0) break;
        [heap[at], heap[parent]] = [heap[parent] ?? 0, heap[at] ?? 0];
        at = parent;
      }
    } else if (before(id, heap[0] ?? 0) < 0) {
      heap[0] = id;
      sink(0);
    }
  }
  return heap.sort(before);
}

function dedupe(terms: QueryTerm[]): QueryTerm[] {
  const seen = new Set<string>();
  return terms.filter((t) => !seen.has(t.term) && seen.add(t.term));
}
