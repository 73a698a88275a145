/**
 * The layout of the search data, shared by the build that cuts it into files and the search worker that
 * loads them. A first search must download about the same whatever the size of the site, so the worker
 * starts from a small entry file and then fetches only the shards a query reaches, Pagefind-style:
 *
 * - letter shards: the vocabulary (every indexed word with how often it occurs) and the fuzzy index of
 *   title and heading words, by first character. Exact, prefix and typo matching and the splitting of
 *   run-together words need the words, not their postings.
 * - head shards: per word range, the posting lists of the short fields (page title, page name, folders,
 *   section heading), and the titles and headings that are exactly a given word sequence.
 * - text shards: per word range, the posting lists of section text, the long ones. A prefix shorter
 *   than the engine's text minimum never loads them.
 * - detail shards: per page range, what a result shows (title, route, headings, excerpts).
 *
 * Section ids run page by page, each page's intro first, as `SearchEntry.sections` counts them.
 */

/** The kinds of shard file, each cut by its own key: a character, a word, or a page index. */
export type ShardKind = 'letters' | 'heads' | 'texts' | 'details';

/**
 * The file the worker loads first. Per kind, the first key of each shard in order (the first shard's is
 * always the smallest key); shard n of a kind is the file `shardFile(kind, n, hash)`.
 */
export interface SearchEntry {
  /** Format version. */
  v: 3;
  /** Content hash of all the shards together: one deployment's files never mix with another's. */
  hash: string;
  /** Size of all the shards together (bytes of JSON), for a worker deciding whether to fetch them all. */
  bytes: number;
  /** Number of sections of each page, in page order. */
  sections: number[];
  letters: string[];
  heads: string[];
  texts: string[];
  details: number[];
}

/** A shard's file name, relative to the entry file's folder. */
export const shardFile = (kind: ShardKind, n: number, hash: string): string => `search/${kind}.${n}.${hash}.json`;

/** The kind of shard a file name (as `shardFile` makes it) is. */
export function shardKindOf(file: string): ShardKind | undefined {
  return /(?:^|\/)(letters|heads|texts|details)\.\d+\.[0-9a-f]+\.json$/.exec(file)?.[1] as ShardKind | undefined;
}

/** Every shard file an entry names. */
export const shardFiles = (entry: SearchEntry): string[] =>
  (['letters', 'heads', 'texts', 'details'] as const).flatMap((kind) =>
    entry[kind].map((_, n) => shardFile(kind, n, entry.hash)),
  );

/** The words starting with some characters, sorted, with the number of postings of each. */
export interface LetterShard {
  /** Sorted words, space-separated. */
  w: string;
  /** Postings per word over all fields, in `w`'s order. */
  f: number[];
  /** Serialised `Fuse.createIndex` over the title, heading and route words of each first character. */
  fuzzy: Record<string, unknown>;
}

/** Fields of a head shard's posting lists, in the order of `PostingShard.p`. */
export const HEAD_FIELDS = ['title', 'name', 'folder', 'heading'] as const;

/** Posting lists of a range of words: `p[field]` holds one list per word of `w`, space-separated. */
export interface PostingShard {
  w: string;
  /** Head shards: pages (title, name, folder) and sections (heading); text shards: one list of sections. */
  p: string[];
  /**
   * Head shards: title and heading keys (stemmed words joined by spaces) in this word range,
   * newline-separated and sorted, with the pages whose title (`kt`) and the sections whose heading
   * (`kh`) is exactly that key, space-separated lists.
   */
  k?: string;
  kt?: string;
  kh?: string;
}

/** A page of a detail shard: its title, route and sections. */
export interface DetailPage {
  t: string;
  u: string;
  /** Sections in id order: heading, excerpt, level, and the heading id when it is not `simpleSlug(heading)`. */
  r: ([h: string, x: string, l: 1 | 2 | 3] | [h: string, x: string, l: 1 | 2 | 3, a: string])[];
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
