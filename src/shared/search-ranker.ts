import { queryTerms, type QueryTerm } from './search-text';
import {
  EXACT,
  TEXT_PREFIX_MIN,
  expandTerm,
  sameMatches,
  splitRunTogether,
  type WordsRead,
} from './search-query-words';
import { IdList } from './id-list';
import { selectLeading, type Selection } from './search-selection';
import type { RankingData } from './search-vocabulary';
import {
  W_FOLDER,
  W_HEADING,
  W_PAGE_NAME,
  W_TEXT,
  W_TITLE_INTRO,
  W_TITLE_SECTION,
  WHOLE_FIELD,
} from './search-weights';

/** Ranking tiers above any score: an exact page title first, then exact section headings. */
const TIER_TITLE = 2;
const TIER_HEADING = 1;

/** A query's ranking, as far as it does not depend on the details of its results. */
export interface Ranking {
  query: string;
  /** The sections shown, grouped by page, in rank order. */
  selections: Selection[];
  /** Words to highlight: what was typed, its stems and the words typos were corrected to. */
  terms: string[];
}

/**
 * The search engine's ranking, the one decision of which results come first: the search worker runs it
 * for every query (src/client/search/engine.ts), the build for the queries whose first results the term
 * files carry (src/node/site/search-first-results.ts).
 *
 * Each query word is looked up exactly and as a prefix in the sorted vocabulary of stemmed words of its
 * first character, which counts every word's postings. A word the index barely knows is corrected: by
 * Fuse's fuzzy match over the words of titles and headings, else by edit distance over the words with the
 * same first letter (search-query-words.ts). Two known words typed as one ("timezone") also match the
 * pair. The words found bring their postings (title, page name, folder, heading, text), and sections are
 * scored by field weights and word rarity with a penalty for missing words, ranked (exact title, exact
 * heading, then score) and grouped under their pages (search-selection.ts).
 *
 * Scores are kept in arrays over every section, reused from query to query: a keystroke allocates little,
 * and the build ranks thousands of queries over a hundred thousand sections.
 */
export class SearchRanker {
  private readonly pageBest: Float64Array;
  private readonly headingBest: Float64Array;
  private readonly textBest: Float64Array;
  private readonly termScore: Float64Array;
  private readonly score: Float64Array;
  private readonly tier: Uint8Array;
  private readonly covered: Float64Array;
  private readonly headingMask: Uint32Array;
  private readonly titleMask: Uint32Array;
  /** The ids a query or a query word reached, in lists kept from query to query as the scores are. */
  private readonly touched = new IdList();
  private readonly pagesReached = new IdList();
  private readonly headingsReached = new IdList();
  private readonly textsReached = new IdList();
  private readonly hits = new IdList();

  constructor(private readonly data: RankingData) {
    const n = data.size;
    this.pageBest = new Float64Array(data.pages);
    this.headingBest = new Float64Array(n);
    this.textBest = new Float64Array(n);
    this.termScore = new Float64Array(n);
    this.score = new Float64Array(n);
    this.tier = new Uint8Array(n);
    this.covered = new Float64Array(n);
    this.headingMask = new Uint32Array(n);
    this.titleMask = new Uint32Array(data.pages);
  }

  /** What a query shows, before its details: the sections chosen, grouped by page, and the words to highlight. */
  rank(query: string): Ranking {
    const typed = typedTerms(query);
    if (typed.length === 0) return { query, selections: [], terms: [] };
    const { data } = this;
    const { pageOf, pageStart } = data;
    const onlyStopWords = typed.every((t) => t.stop);
    const highlight = new Set<string>();
    const { touched } = this;
    touched.clear();
    // Sections a run-together word's parts reached apart: not scored, but their field masks are set.
    const reachedApart: number[] = [];
    let requiredMask = 0;
    let requiredWeight = 0;

    typed.forEach((queryTerm, i) => {
      const required = onlyStopWords || !queryTerm.stop;
      const last = i === typed.length - 1;
      // Stop words among other words are left out, but the last word may be the start of another word.
      if (!required && !last) return;
      if (required) highlight.add(queryTerm.word).add(queryTerm.term);
      const bit = required ? 1 << i : 0;
      let hits: ArrayLike<number> = this.scoreTerm(expandTerm(data, queryTerm, last, highlight), bit);
      const parts = splitRunTogether(data, queryTerm);
      if (parts) {
        const scores = this.takeScores(hits);
        const head = this.takeScores(this.scoreTerm(expandTerm(data, parts[0], false, highlight), bit));
        const tail = this.takeScores(this.scoreTerm(expandTerm(data, parts[1], last, highlight), bit));
        reachedApart.push(...head.keys(), ...tail.keys());
        for (const [id, value] of head) {
          const other = tail.get(id);
          if (other !== undefined) scores.set(id, Math.max(scores.get(id) ?? 0, (value + other) / 2));
        }
        hits = [...scores.keys()];
        for (const [id, value] of scores) this.termScore[id] = value;
        highlight.add(parts[0].word).add(parts[1].word);
      }
      // Rarer words weigh more; a stop word adds a little and is not required.
      const weight = required ? Math.log(1 + data.size / Math.max(hits.length, 1)) : 0.3;
      if (required) {
        requiredMask |= bit;
        requiredWeight += weight;
      }
      for (let h = 0; h < hits.length; h++) {
        const id = hits[h] ?? 0;
        if (this.score[id] === 0 && this.covered[id] === 0) touched.push(id);
        this.score[id] = (this.score[id] ?? 0) + weight * (this.termScore[id] ?? 0);
        if (required) this.covered[id] = (this.covered[id] ?? 0) + weight;
        this.termScore[id] = 0;
      }
    });

    // The query's words as a phrase key (`phraseKey`): the titles and headings that are exactly the query.
    const exact = data.exact(typed.map((t) => t.term).join(' '));
    const exactTitles = new Set(exact.titles);
    const exactHeadings = new Set(exact.headings);
    // Each section's value and tier go into arrays by id, not an object each: a common prefix reaches
    // tens of thousands of sections, of which a few hundred at most are looked at again.
    const { score: value, tier } = this;
    const ranked: number[] = [];
    const touchedIds = touched.view();
    for (let t = 0; t < touchedIds.length; t++) {
      const id = touchedIds[t] ?? 0;
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
    for (let t = 0; t < touchedIds.length; t++) {
      const p = pageOf[touchedIds[t] ?? 0] ?? 0;
      if (requiredMask !== 0 && this.titleMask[p] === requiredMask) titled.add(p);
    }
    const selections = selectLeading({ ids: ranked, tier, value }, titled, pageOf, pageStart);
    // Every mask set is cleared, or it would carry into the next query: a query's ranking must not depend
    // on the queries before it, as the build ranks them in another order than a reader types them.
    for (const id of reachedApart) {
      this.headingMask[id] = 0;
      this.titleMask[pageOf[id] ?? 0] = 0;
    }
    for (let t = 0; t < touchedIds.length; t++) {
      const id = touchedIds[t] ?? 0;
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
  private scoreTerm(matches: Map<string, number>, bit: number): Uint32Array {
    const { data, pagesReached, headingsReached, textsReached, hits } = this;
    const { pageStart } = data;
    pagesReached.clear();
    headingsReached.clear();
    textsReached.clear();
    hits.clear();
    for (const [word, quality] of matches) {
      const head = data.headPostings(word);
      raise(this.pageBest, pagesReached, head.title, quality);
      raise(this.pageBest, pagesReached, head.name, quality * W_PAGE_NAME);
      raise(this.pageBest, pagesReached, head.folder, quality * W_FOLDER);
      raise(this.headingBest, headingsReached, head.heading, quality);
      if (quality === EXACT || word.length >= TEXT_PREFIX_MIN) {
        raise(this.textBest, textsReached, data.textPostings(word), quality);
      }
    }

    const add = (id: number, value: number) => {
      if (this.termScore[id] === 0) hits.push(id);
      this.termScore[id] = (this.termScore[id] ?? 0) + value;
    };
    const pages = pagesReached.view();
    for (let i = 0; i < pages.length; i++) {
      const p = pages[i] ?? 0;
      const quality = this.pageBest[p] ?? 0;
      this.pageBest[p] = 0;
      this.titleMask[p] = (this.titleMask[p] ?? 0) | bit;
      const start = pageStart[p] ?? 0;
      const end = pageStart[p + 1] ?? 0;
      for (let id = start; id < end; id++) add(id, quality * (id === start ? W_TITLE_INTRO : W_TITLE_SECTION));
    }
    const headings = headingsReached.view();
    for (let i = 0; i < headings.length; i++) {
      const id = headings[i] ?? 0;
      add(id, (this.headingBest[id] ?? 0) * W_HEADING);
      this.headingBest[id] = 0;
      this.headingMask[id] = (this.headingMask[id] ?? 0) | bit;
    }
    const texts = textsReached.view();
    for (let i = 0; i < texts.length; i++) {
      const id = texts[i] ?? 0;
      add(id, (this.textBest[id] ?? 0) * W_TEXT);
      this.textBest[id] = 0;
    }
    return hits.view();
  }

  /** Moves the scores `scoreTerm` left in `termScore` into a map. */
  private takeScores(hits: ArrayLike<number>): Map<number, number> {
    const scores = new Map<number, number>();
    for (let h = 0; h < hits.length; h++) {
      const id = hits[h] ?? 0;
      scores.set(id, this.termScore[id] ?? 0);
      this.termScore[id] = 0;
    }
    return scores;
  }
}

/** Raises each of `ids`' best match quality in `best` to `quality`, noting in `reached` those it reaches first. */
function raise(best: Float64Array, reached: IdList, ids: readonly number[], quality: number): void {
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] ?? 0;
    const current = best[id] ?? 0;
    if (current === 0) reached.push(id);
    if (current < quality) best[id] = quality;
  }
}

const typedTerms = (query: string): QueryTerm[] => dedupe(queryTerms(query)).slice(0, 16);

/**
 * Whether `query` ranks alike over `data` and over data of the same sections whose words `same` compares
 * with it: when every word its ranking reads (`sameMatches`) and the titles and headings that are exactly
 * the query are the same. So the build keeps the rankings an edit cannot have changed
 * (src/node/site/search-first-results.ts). A function beside the ranker rather than its method: the
 * reader's search worker never asks it, and its bundle leaves it out.
 */
export function ranksAlike(
  data: RankingData,
  query: string,
  same: WordsRead & { phrase(key: string): boolean },
): boolean {
  const typed = typedTerms(query);
  return (
    typed.every((queryTerm) => sameMatches(data, queryTerm, same)) && same.phrase(typed.map((t) => t.term).join(' '))
  );
}

function dedupe(terms: QueryTerm[]): QueryTerm[] {
  const seen = new Set<string>();
  return terms.filter((t) => !seen.has(t.term) && seen.add(t.term));
}
