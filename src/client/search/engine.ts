import { shardKindOf, type SearchEntry } from '../../shared/search-layout';
import { SearchRanker, type Ranking } from '../../shared/search-ranker';
import { rankingKey, storedRanking } from '../../shared/search-stored-ranking';
import { drawGroups, type SearchResults } from './results';
import { SearchShards } from './shards';

const NO_RESULTS: SearchResults = { groups: [], terms: [], total: 0 };

/** What one run of a query gives: its results, or the files it needs first. */
export interface SearchOutcome {
  /** With files missing: empty, or when only results' details are missing, the leading groups drawable. */
  results: SearchResults;
  /** Shard files (as the entry names them) the query reached and did not have, in rank order. */
  missing: string[];
}

/** Detail files loaded first when a query needs more: about the first screen of results. */
const FIRST_DETAILS = 6;

/**
 * Section search, meant to run in a worker, over an index that arrives in shards. The ranking is
 * src/shared/search-ranker.ts, the same code the build runs to choose what the term files carry; this
 * runs it over the shards loaded so far (`SearchShards`), notes the files a query reached and did not
 * have, and draws a ranking once the details of its results are there. A one-word query the build ranked
 * (a frequent word or one of its beginnings) is drawn from the ranking its term file carries
 * (src/shared/search-stored-ranking.ts).
 */
export class SearchEngine {
  private readonly shards: SearchShards;
  private readonly ranker: SearchRanker;
  /**
   * The last query ranked over every file it reached. Its details arrive in later runs (the first screen,
   * then the rest), and a common prefix reaches tens of thousands of sections: those runs draw this
   * ranking instead of ranking again.
   */
  private lastRanking: Ranking | undefined;

  /** `entry` as `parseSearchEntry` (src/client/data/parse.ts) checked it. */
  constructor(entry: SearchEntry) {
    this.shards = new SearchShards(entry);
    this.ranker = new SearchRanker(this.shards);
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
    const key = this.lastRanking?.query === query ? undefined : rankingKey(query);
    if (key !== undefined) {
      // A query the build ranked draws that ranking from its term file alone: a short beginning would
      // otherwise wait for the files of every word it begins, then rank tens of thousands of sections.
      const stored = this.shards.storedRanking(key);
      const missing = this.shards.takeMissing();
      if (missing.length > 0) return { results: NO_RESULTS, missing };
      if (stored) this.lastRanking = storedRanking(query, stored);
    }
    if (this.lastRanking?.query !== query) {
      const ranking = this.ranker.rank(query);
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
