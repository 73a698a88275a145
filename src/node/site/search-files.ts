import { encodePostings } from '../../shared/search-text';
import {
  TERM_FIELDS,
  letterOf,
  shardName,
  type DetailSection,
  type DetailShard,
  type LetterShard,
  type SearchEntry,
  type ShardKind,
  type ShownPage,
  type TermShard,
} from '../../shared/search-layout';
import { storeRanking } from '../../shared/search-stored-ranking';
import { lowerBound } from '../../shared/search-vocabulary';
import { contentHash } from '../content-hash';
import type { PageRecord } from '../analyze/page-record';
import { fileRankings, firstResults, postingCount, shownIds } from './search-first-results';
import { FIELD, buildSearchIndex, type IndexedWord, type SearchIndex } from './search-index';
import { Pace } from '../pace';
import { earlierRankings, type PreviousSearch } from './search-previous';

/**
 * Sizes a shard grows to before the next one starts (bytes of JSON, before compression). Small enough
 * that a query's files stay a few dozen kilobytes at 10,000 pages, large enough that a small site has
 * a handful of files. A single word or page larger than its target gets a shard of its own.
 */
const LETTER_BYTES = 48_000;
const TERM_BYTES = 48_000;
/** Words that start with the same this many characters share a term shard, up to `TERM_BYTES_MAX`. */
const SAME_FILE_PREFIX = 4;
const TERM_BYTES_MAX = 3 * TERM_BYTES;
const DETAIL_BYTES = 12_000;

/**
 * A term shard carries what the first results of each of its frequent words show, typed out and being
 * typed (src/node/site/search-first-results.ts). Those results are far apart in the site (a word is on
 * pages of every folder), so a detail shard each would make a first query a dozen requests or more.
 * The sections the term shards carry cost at most this share of the detail shards' size, the most
 * frequent words first: a rare word's few results need few detail files anyway.
 */
const SHOWN_SHARE = 1;
/**
 * And at most this many bytes, about what the share gives a site of two thousand pages: every word taken
 * is ranked over the whole site, so a share alone made the work grow with the square of the site's size,
 * while the words past these are rare enough that their few detail files answer them.
 */
const SHOWN_BYTES_MAX = 2_000_000;

/** A file the search data is made of, named relative to the entry file's folder. */
export interface SearchFile {
  name: string;
  data: string;
}

/** The search data as files: the entry (which names the others) and the shards. */
export interface SearchFiles {
  entry: string;
  shards: SearchFile[];
}

/**
 * The search data of a site's pages, as files; the `previous` build's, when given, lends the first
 * results no edit since can have changed. Its making gives way to other work, and stops when `signal`
 * is aborted (src/node/pace.ts).
 */
export async function buildSearchFiles(
  pages: readonly PageRecord[],
  signal?: AbortSignal,
  previous?: PreviousSearch,
): Promise<SearchFiles> {
  const pace = new Pace(signal);
  return searchFiles(await buildSearchIndex(pages, pace), pace, previous);
}

/** Cuts an index into the entry file and its shards (src/shared/search-layout.ts describes them). */
export async function searchFiles(
  index: SearchIndex,
  pace = new Pace(),
  previous?: PreviousSearch,
): Promise<SearchFiles> {
  const words = [...index.words];
  const cuts = {
    letters: letterShards(words, index.fuzzy),
    terms: await termShards(words, index, pace, previous),
    details: detailShards(index),
  };
  // Each shard named by its own content, in the order the entry lists them.
  const shards: SearchFile[] = [];
  const hashes = { letters: [], terms: [], details: [] } as Record<ShardKind, string[]>;
  for (const kind of Object.keys(cuts) as ShardKind[]) {
    (cuts[kind] as [unknown, unknown][]).forEach(([, shard], n) => {
      const data = JSON.stringify(shard);
      const hash = contentHash(data);
      hashes[kind].push(hash);
      shards.push({ name: shardName(kind, n, hash), data });
    });
  }
  const entry: SearchEntry = {
    v: 5,
    hashes,
    bytes: shards.reduce((n, shard) => n + shard.data.length, 0),
    sections: index.pages.map((page) => page.r.length),
    letters: cuts.letters.map(([from]) => from),
    terms: cuts.terms.map(([from]) => from),
    details: cuts.details.map(([from]) => from),
  };
  return { entry: JSON.stringify(entry), shards };
}

/**
 * Consecutive items grouped until a group's estimated size reaches `target`; `canCut` may forbid a
 * boundary, given the size the group has reached.
 */
function groups<T>(
  items: readonly T[],
  size: (item: T) => number,
  target: number,
  canCut = (_a: T, _b: T, _bytes: number) => true,
): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  items.forEach((item, i) => {
    const previous = items[i - 1];
    if (current.length > 0 && bytes >= target && previous !== undefined && canCut(previous, item, bytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size(item);
  });
  if (current.length > 0) out.push(current);
  return out;
}

/** The vocabulary by first character: a character's words never straddle two shards. */
function letterShards(words: [string, IndexedWord][], fuzzy: Map<string, unknown>): [string, LetterShard][] {
  const fuzzyBytes = new Map([...fuzzy].map(([letter, value]) => [letter, JSON.stringify(value).length]));
  const seen = new Set<string>();
  const size = ([word]: [string, IndexedWord]) => {
    const letter = letterOf(word);
    const first = !seen.has(letter);
    seen.add(letter);
    return word.length + 4 + (first ? (fuzzyBytes.get(letter) ?? 0) : 0);
  };
  const cut = ([a]: [string, IndexedWord], [b]: [string, IndexedWord]) => letterOf(a) !== letterOf(b);
  return groups(words, size, LETTER_BYTES, cut).map((group, i) => {
    const letters = new Set(group.map(([word]) => letterOf(word)));
    const shard: LetterShard = {
      w: group.map(([word]) => word).join(' '),
      f: group.map(([, word]) => postingCount(word)),
      fuzzy: Object.fromEntries([...letters].flatMap((l) => (fuzzy.has(l) ? [[l, fuzzy.get(l)]] : []))),
    };
    return [i === 0 ? '' : letterOf(group[0]?.[0] ?? ''), shard];
  });
}

/** A word's posting lists, or a title or heading key with its pages and sections. */
interface Posted {
  key: string;
  lists: string[];
  phrase: boolean;
  /** Bytes of the stored rankings (and their sections) whose keys come right after this key. */
  ranked: number;
}

/**
 * Every word's posting lists, for consecutive word ranges, with the title and heading keys (cut with the
 * words, as a site with many headings that start alike has many keys in one word range) and the engine's
 * first results of the frequent words whose keys fall in each range, with the sections they show.
 */
async function termShards(
  words: [string, IndexedWord][],
  index: SearchIndex,
  pace: Pace,
  previous: PreviousSearch | undefined,
): Promise<[string, TermShard][]> {
  const pageStart = [0];
  for (const page of index.pages) pageStart.push((pageStart[pageStart.length - 1] ?? 0) + page.r.length);
  const pageOf = (id: number) => upperBound(pageStart, id) - 1;
  const sectionBytes = (id: number) => {
    const page = index.pages[pageOf(id)];
    const [h = '', x = ''] = page?.r[id - (pageStart[pageOf(id)] ?? 0)] ?? [];
    return h.length + x.length + (page ? page.t.length + page.u.length : 0) + 16;
  };
  const { titleKeys, headingKeys } = index;
  const posted: Posted[] = words.map(([key, word]) => ({
    key,
    lists: TERM_FIELDS.map((field) => encodePostings(word.postings[FIELD[field]])),
    phrase: false,
    ranked: 0,
  }));
  for (const key of new Set([...titleKeys.keys(), ...headingKeys.keys()])) {
    const lists = [encodePostings(titleKeys.get(key) ?? []), encodePostings(headingKeys.get(key) ?? [])];
    posted.push({ key, lists, phrase: true, ranked: 0 });
  }
  posted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : Number(a.phrase) - Number(b.phrase)));
  const budget = Math.min(SHOWN_BYTES_MAX, SHOWN_SHARE * index.pages.reduce((n, page) => n + detailBytes(page), 0));
  const sections = index.pages.map((page) => page.r.length);
  const earlier = earlierRankings(previous, sections, posted);
  const rankings = await firstResults(index, budget, sectionBytes, pace, earlier);
  // A ranking's bytes count with the key before it, where the cut below most likely files it.
  const stored = [...rankings].map(([key, ranking]) => ({
    key,
    ranking: storeRanking(ranking),
    ids: shownIds(ranking),
  }));
  const keys = posted.map((p) => p.key);
  for (const { key, ranking, ids } of stored) {
    const at = lowerBound(keys, key);
    const before = posted[keys[at] === key ? at : Math.max(0, at - 1)];
    if (before) before.ranked += JSON.stringify(ranking).length + ids.reduce((n, id) => n + sectionBytes(id), 0);
  }
  const size = ({ key, lists, ranked }: Posted) => key.length + lists.reduce((n, l) => n + l.length + 1, 0) + ranked;
  // A word and the title or heading that is that word alone share a shard: both are found by that key.
  // So do the words that start alike, up to a size, so that a typed word and the words it begins are in
  // one file: the query needs no second round for them.
  const apart = (a: Posted, b: Posted, bytes: number) =>
    a.key !== b.key &&
    (a.key.slice(0, SAME_FILE_PREFIX) !== b.key.slice(0, SAME_FILE_PREFIX) || bytes >= TERM_BYTES_MAX);
  const cut = groups(posted, size, TERM_BYTES, apart);
  // A shard cut between words that start differently starts at its first word's beginning: a typed
  // beginning that is no word itself (every word after the previous shard's last) then finds it.
  const firsts = cut.map((group, i) => {
    const from = group[0]?.key ?? '';
    const before = cut[i - 1]?.at(-1)?.key;
    const start = from.slice(0, SAME_FILE_PREFIX);
    return before === undefined ? '' : before.slice(0, SAME_FILE_PREFIX) === start ? from : start;
  });
  const filed = fileRankings(stored, firsts);
  return cut.map((group, i): [string, TermShard] => {
    const listed = group.filter((g) => !g.phrase);
    const shard: TermShard = {
      w: listed.map((g) => g.key).join(' '),
      p: TERM_FIELDS.map((_, f) => listed.map((g) => g.lists[f]).join(' ')),
    };
    const keyed = group.filter((g) => g.phrase);
    if (keyed.length > 0) {
      shard.k = keyed.map((g) => g.key).join('\n');
      shard.kt = keyed.map((g) => g.lists[0]).join(' ');
      shard.kh = keyed.map((g) => g.lists[1]).join(' ');
    }
    const { q, ids } = filed[i] ?? { q: {}, ids: [] };
    if (ids.length > 0) shard.s = shownPages(ids, index, pageStart, pageOf);
    if (Object.keys(q).length > 0) shard.q = q;
    return [firsts[i] ?? '', shard];
  });
}

/** The given sections (ascending ids) with their pages' titles and routes, page by page. */
function shownPages(
  ids: readonly number[],
  index: SearchIndex,
  pageStart: readonly number[],
  pageOf: (id: number) => number,
): ShownPage[] {
  const pages: ShownPage[] = [];
  for (const id of ids) {
    const p = pageOf(id);
    const page = index.pages[p];
    if (!page) continue;
    const n = id - (pageStart[p] ?? 0);
    const section = page.r[n] ?? (['', '', 1] as DetailSection);
    let last = pages[pages.length - 1];
    if (last?.[0] !== p) pages.push((last = [p, page.t, page.u, []]));
    last[3].push([n, ...section]);
  }
  return pages;
}

/** The position of the first value in an ascending list greater than `value`. */
function upperBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((values[mid] ?? 0) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}

const detailBytes = (page: SearchIndex['pages'][number]) =>
  page.t.length + page.u.length + page.r.reduce((n: number, [h, x]) => n + h.length + x.length + 12, 0);

/** What results show, for consecutive page ranges. */
function detailShards(index: SearchIndex): [number, DetailShard][] {
  const numbered = index.pages.map((page, p) => ({ page, p }));
  return groups(numbered, ({ page }) => detailBytes(page), DETAIL_BYTES).map((group) => [
    group[0]?.p ?? 0,
    { pages: group.map((g) => g.page) },
  ]);
}
