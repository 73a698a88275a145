import { encodePostings } from '../../shared/search-text';
import {
  HEAD_FIELDS,
  letterOf,
  shardFile,
  type ShardKind,
  type DetailShard,
  type LetterShard,
  type PostingShard,
  type SearchEntry,
} from '../../shared/search-layout';
import { contentHashOfAll } from '../content-hash';
import type { PageSource } from '../content/page-record';
import { FIELD, buildSearchIndex, type IndexedWord, type SearchIndex } from './search-index';

/**
 * Sizes a shard grows to before the next one starts (bytes of JSON, before compression). Small enough
 * that a query's files stay a few dozen kilobytes at 10,000 pages, large enough that a small site has
 * a handful of files. A single word or page larger than its target gets a shard of its own.
 */
const LETTER_BYTES = 24_000;
const HEAD_BYTES = 16_000;
const TEXT_BYTES = 32_000;
const DETAIL_BYTES = 4_000;

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

/** The search data of a site's pages, as files. */
export function buildSearchFiles(pages: readonly PageSource[]): SearchFiles {
  return searchFiles(buildSearchIndex(pages));
}

/** Cuts an index into the entry file and its shards (src/shared/search-layout.ts describes them). */
export function searchFiles(index: SearchIndex): SearchFiles {
  const words = [...index.words];
  const cuts = {
    letters: letterShards(words, index.fuzzy),
    heads: postingShards(
      words,
      HEAD_FIELDS.map((field) => FIELD[field]),
      HEAD_BYTES,
      index,
    ),
    texts: postingShards(words, [FIELD.text], TEXT_BYTES),
    details: detailShards(index),
  };
  const kinds = Object.keys(cuts) as ShardKind[];
  const json = new Map(
    kinds.map((kind) => [kind, (cuts[kind] as [unknown, unknown][]).map(([, s]) => JSON.stringify(s))]),
  );
  const all = kinds.flatMap((kind) => json.get(kind) ?? []);
  const hash = contentHashOfAll(all);
  const entry: SearchEntry = {
    v: 3,
    hash,
    bytes: all.reduce((n, data) => n + data.length, 0),
    sections: index.pages.map((page) => page.r.length),
    letters: cuts.letters.map(([from]) => from),
    heads: cuts.heads.map(([from]) => from),
    texts: cuts.texts.map(([from]) => from),
    details: cuts.details.map(([from]) => from),
  };
  const shards = kinds.flatMap((kind) =>
    (json.get(kind) ?? []).map((data, n): SearchFile => ({ name: shardFile(kind, n, hash), data })),
  );
  return { entry: JSON.stringify(entry), shards };
}

/** Consecutive items grouped until a group's estimated size reaches `target`; `canCut` may forbid a boundary. */
function groups<T>(
  items: readonly T[],
  size: (item: T) => number,
  target: number,
  canCut = (_a: T, _b: T) => true,
): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  items.forEach((item, i) => {
    const previous = items[i - 1];
    if (current.length > 0 && bytes >= target && previous !== undefined && canCut(previous, item)) {
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

const total = (word: IndexedWord) => word.postings.reduce((n, list) => n + list.length, 0);

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
      f: group.map(([, word]) => total(word)),
      fuzzy: Object.fromEntries([...letters].flatMap((l) => (fuzzy.has(l) ? [[l, fuzzy.get(l)]] : []))),
    };
    return [i === 0 ? '' : letterOf(group[0]?.[0] ?? ''), shard];
  });
}

/** A word's posting lists in some fields, or a title or heading key with its pages and sections. */
interface Posted {
  key: string;
  lists: string[];
  phrase: boolean;
}

/**
 * The posting lists of some fields for consecutive key ranges; words with none in these fields are left
 * out. `phrases` (title and heading keys, head shards only) are cut with the words, as a site with many
 * headings that start alike has many keys in one word range.
 */
function postingShards(
  words: [string, IndexedWord][],
  fields: number[],
  target: number,
  phrases?: SearchIndex,
): [string, PostingShard][] {
  const posted: Posted[] = [];
  for (const [key, word] of words) {
    if (!fields.some((f) => (word.postings[f]?.length ?? 0) > 0)) continue;
    posted.push({ key, lists: fields.map((f) => encodePostings(word.postings[f] ?? [])), phrase: false });
  }
  if (phrases) {
    const { titleKeys, headingKeys } = phrases;
    for (const key of new Set([...titleKeys.keys(), ...headingKeys.keys()])) {
      const lists = [encodePostings(titleKeys.get(key) ?? []), encodePostings(headingKeys.get(key) ?? [])];
      posted.push({ key, lists, phrase: true });
    }
    posted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : Number(a.phrase) - Number(b.phrase)));
  }
  const size = ({ key, lists }: Posted) => key.length + lists.reduce((n, l) => n + l.length + 1, 0);
  // A word and the title or heading that is that word alone share a shard: both are found by that key.
  const apart = (a: Posted, b: Posted) => a.key !== b.key;
  return groups(posted, size, target, apart).map((group, i): [string, PostingShard] => {
    const listed = group.filter((g) => !g.phrase);
    const shard: PostingShard = {
      w: listed.map((g) => g.key).join(' '),
      p: fields.map((_, f) => listed.map((g) => g.lists[f]).join(' ')),
    };
    const keyed = group.filter((g) => g.phrase);
    if (keyed.length > 0) {
      shard.k = keyed.map((g) => g.key).join('\n');
      shard.kt = keyed.map((g) => g.lists[0]).join(' ');
      shard.kh = keyed.map((g) => g.lists[1]).join(' ');
    }
    return [i === 0 ? '' : (group[0]?.key ?? ''), shard];
  });
}

/** What results show, for consecutive page ranges. */
function detailShards(index: SearchIndex): [number, DetailShard][] {
  const numbered = index.pages.map((page, p) => ({ page, p }));
  const size = ({ page }: { page: SearchIndex['pages'][number] }) =>
    page.t.length + page.u.length + page.r.reduce((n: number, [h, x]) => n + h.length + x.length + 12, 0);
  return groups(numbered, size, DETAIL_BYTES).map((group) => [group[0]?.p ?? 0, { pages: group.map((g) => g.page) }]);
}
