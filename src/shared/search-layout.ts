/**
 * The layout of the search data, shared by the build that cuts it into files and the search worker that
 * loads them. A first search must download about the same whatever the size of the site, and in a
 * handful of files, so the worker starts from a small entry file and then fetches only the shards a
 * query reaches, Pagefind-style:
 *
 * - letter shards: the vocabulary (every indexed word with how often it occurs) and the fuzzy index of
 *   title and heading words, by first character. Exact, prefix and typo matching and the splitting of
 *   run-together words need the words, not their postings.
 * - term shards: per word range, everything a query needs of those words in one file: the posting lists
 *   of every field (page title, page name, folders, section heading, section text), the titles and
 *   headings that are exactly a given word sequence, the engine's ranking of each frequent word and of
 *   its beginnings (`TermShard.q`, search-stored-ranking.ts) and what those first results show
 *   (`TermShard.s`). Results are spread over the whole site (the same word is on pages far apart), so
 *   without those a first screen would need a detail file per page shown.
 * - detail shards: per page range, what a result shows (title, route, headings, excerpts), for the results
 *   the term shards do not carry.
 *
 * Section ids run page by page, each page's intro first, as `SearchEntry.sections` counts them.
 */

/** The kinds of shard file, each cut by its own key: a character, a word, or a page index. */
export type ShardKind = 'letters' | 'terms' | 'details';

const KINDS: readonly ShardKind[] = ['letters', 'terms', 'details'];

/**
 * The file the worker loads first. Per kind, the first key of each shard in order (the first shard's is
 * always the smallest key); shard n of a kind is the file `shardFile(entry, kind, n)`.
 */
export interface SearchEntry {
  /** Format version. */
  v: 5;
  /**
   * Per kind, each shard's content hash, in shard order. A shard is named by its own content, so an edit
   * renames only the shards it changed: a build rewrites those alone, and a reader's browser keeps the
   * others it has; two deployments share a name only where they share the bytes.
   */
  hashes: Record<ShardKind, string[]>;
  /** Size of all the shards together (bytes of JSON), for a worker deciding whether to fetch them all. */
  bytes: number;
  /** Number of sections of each page, in page order. */
  sections: number[];
  letters: string[];
  terms: string[];
  details: number[];
}

/** The name of shard `n` of a kind whose content hash is `hash`, relative to the entry file's folder. */
export const shardName = (kind: ShardKind, n: number, hash: string): string => `search/${kind}.${n}.${hash}.json`;

/** The file of shard `n` of a kind, as `entry` names it. */
export function shardFile(entry: SearchEntry, kind: ShardKind, n: number): string {
  const hash = entry.hashes[kind][n];
  if (hash === undefined) throw new Error(`the search entry has no ${kind} shard ${n}`);
  return shardName(kind, n, hash);
}

/** The kind of shard a file name (as `shardName` makes it) is. */
export function shardKindOf(file: string): ShardKind | undefined {
  return /(?:^|\/)(letters|terms|details)\.\d+\.[0-9a-f]+\.json$/.exec(file)?.[1] as ShardKind | undefined;
}

/** Every shard file an entry names. */
export const shardFiles = (entry: SearchEntry): string[] =>
  KINDS.flatMap((kind) => entry[kind].map((_, n) => shardFile(entry, kind, n)));

/** The words starting with some characters, sorted, with the number of postings of each. */
export interface LetterShard {
  /** Sorted words, space-separated. */
  w: string;
  /** Postings per word over all fields, in `w`'s order. */
  f: number[];
  /** Serialised `Fuse.createIndex` over the title, heading and route words of each first character. */
  fuzzy: Record<string, unknown>;
}

/** Fields of a term shard's posting lists, in the order of `TermShard.p`: page fields, then section fields. */
export const TERM_FIELDS = ['title', 'name', 'folder', 'heading', 'text'] as const;

/** A section as a result shows it: heading, excerpt, level, and the heading id when it is not `simpleSlug(heading)`. */
export type DetailSection = [h: string, x: string, l: 1 | 2 | 3] | [h: string, x: string, l: 1 | 2 | 3, a: string];

/**
 * Some sections of a page, as a term shard carries them for its words' first results: the page's index,
 * title and route, and per section its position in the page (0 is the intro) and what it shows.
 */
export type ShownPage = [p: number, t: string, u: string, sections: [n: number, ...section: DetailSection][]];

/**
 * The engine's ranking of a one-word query, as a term file carries it. The build runs the engine's own
 * ranking (search-ranker.ts; kept and read by search-stored-ranking.ts) for every beginning of a site's frequent words (src/node/site/
 * search-first-results.ts) and stores what it gave; the search worker draws that ranking for the same
 * query instead of ranking it again. A short beginning reaches tens of thousands of sections, and
 * ranking them is the first query's longest step in the worker, which runs the ranking's code for the
 * first time then. What comes first is still the engine's decision: this is its answer, kept.
 *
 * The words to highlight (`t`), then per page shown, in rank order, its sections' ids, tiers and values.
 */
export interface StoredRanking {
  t: string[];
  s: [page: number, hits: [id: number, tier: number, value: number][]][];
}

/** Everything a query needs of a range of words: `p[field]` holds one list per word of `w`, space-separated. */
export interface TermShard {
  w: string;
  /** Pages (title, name, folder) and sections (heading, text), in `TERM_FIELDS` order. */
  p: string[];
  /**
   * Title and heading keys (stemmed words joined by spaces) in this word range, newline-separated and
   * sorted, with the pages whose title (`kt`) and the sections whose heading (`kh`) is exactly that key,
   * space-separated lists.
   */
  k?: string;
  kt?: string;
  kh?: string;
  /**
   * What the first results of the range's frequent words, typed out or being typed, show, by page
   * (ascending), once per shard.
   */
  s?: ShownPage[];
  /**
   * The engine's ranking of each one-word query the build ranked whose key (`rankingKey`) falls in this
   * file's word range, by key; the sections they show are in `s`.
   */
  q?: Record<string, StoredRanking>;
}

/** A page of a detail shard: its title, route and sections. */
export interface DetailPage {
  t: string;
  u: string;
  /** Sections in id order. */
  r: DetailSection[];
}

export interface DetailShard {
  pages: DetailPage[];
}

/** The shard that holds `key`, from the sorted first keys of a kind's shards: the last one starting at or before it. */
export function shardFor<Key extends string | number>(firsts: readonly Key[], key: Key): number {
  let low = 0;
  let high = firsts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((firsts[mid] ?? key) <= key) low = mid + 1;
    else high = mid;
  }
  return Math.max(0, low - 1);
}

/** The character a word is filed under in the letter shards: its first UTF-16 unit, as the engine reads it. */
export const letterOf = (word: string): string => word[0] ?? '';

/** Where a shard file is, from the entry's URL and the name the entry gives it. */
export const shardUrl = (entryUrl: string, file: string): string =>
  entryUrl.slice(0, entryUrl.lastIndexOf('/') + 1) + file;
