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
import { contentHash } from '../content-hash';
import type { PageSource } from '../analyze/page-record';
import {
  W_FOLDER,
  W_HEADING,
  W_PAGE_NAME,
  W_TEXT,
  W_TITLE_INTRO,
  W_TITLE_SECTION,
  WHOLE_FIELD,
} from '../../shared/search-weights';
import { FIELD, buildSearchIndex, type IndexedWord, type SearchIndex } from './search-index';

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
 * A term shard carries what the first results of each of its frequent words show: about a first screen
 * of a one-word query, and of the word's beginning as it is typed, which ranks without the word's exact
 * titles and headings first. Those results are far apart in the site (a word is on pages of every
 * folder), so a detail shard each would make a first query a dozen requests or more.
 */
const SHOWN_PER_WORD = 20;
/**
 * The sections the term shards carry cost at most this share of the detail shards' size, the most
 * frequent words first: a rare word's few results need few detail files anyway.
 */
const SHOWN_SHARE = 1;

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
    terms: termShards(words, index),
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

/** A word's posting lists and the sections its first results show, or a title or heading key with its pages and sections. */
interface Posted {
  key: string;
  lists: string[];
  phrase: boolean;
  shown: readonly number[];
}

/**
 * Every word's posting lists, for consecutive word ranges, with the title and heading keys (cut with the
 * words, as a site with many headings that start alike has many keys in one word range) and what the
 * first results of the range's frequent words show.
 */
function termShards(words: [string, IndexedWord][], index: SearchIndex): [string, TermShard][] {
  const pageStart = [0];
  for (const page of index.pages) pageStart.push((pageStart[pageStart.length - 1] ?? 0) + page.r.length);
  const pageOf = (id: number) => upperBound(pageStart, id) - 1;
  const sectionBytes = (id: number) => {
    const page = index.pages[pageOf(id)];
    const [h = '', x = ''] = page?.r[id - (pageStart[pageOf(id)] ?? 0)] ?? [];
    return h.length + x.length + (page ? page.t.length + page.u.length : 0) + 16;
  };
  const shown = shownSections(words, index, pageStart, sectionBytes);
  const { titleKeys, headingKeys } = index;
  const posted: Posted[] = words.map(([key, word]) => ({
    key,
    lists: TERM_FIELDS.map((field) => encodePostings(word.postings[FIELD[field]])),
    phrase: false,
    shown: shown.get(key) ?? [],
  }));
  for (const key of new Set([...titleKeys.keys(), ...headingKeys.keys()])) {
    const lists = [encodePostings(titleKeys.get(key) ?? []), encodePostings(headingKeys.get(key) ?? [])];
    posted.push({ key, lists, phrase: true, shown: [] });
  }
  posted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : Number(a.phrase) - Number(b.phrase)));
  const size = ({ key, lists, shown: ids }: Posted) =>
    key.length + lists.reduce((n, l) => n + l.length + 1, 0) + ids.reduce((n, id) => n + sectionBytes(id), 0);
  // A word and the title or heading that is that word alone share a shard: both are found by that key.
  // So do the words that start alike, up to a size, so that a typed word and the words it begins are in
  // one file: the query needs no second round for them.
  const apart = (a: Posted, b: Posted, bytes: number) =>
    a.key !== b.key &&
    (a.key.slice(0, SAME_FILE_PREFIX) !== b.key.slice(0, SAME_FILE_PREFIX) || bytes >= TERM_BYTES_MAX);
  const cut = groups(posted, size, TERM_BYTES, apart);
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
    const ids = [...new Set(listed.flatMap((g) => g.shown))].sort((a, b) => a - b);
    if (ids.length > 0) shard.s = shownPages(ids, index, pageStart, pageOf);
    // A shard cut between words that start differently starts at its first word's beginning: a typed
    // beginning that is no word itself (every word after the previous shard's last) then finds it.
    const from = group[0]?.key ?? '';
    const before = cut[i - 1]?.at(-1)?.key;
    const start = from.slice(0, SAME_FILE_PREFIX);
    return [before === undefined ? '' : before.slice(0, SAME_FILE_PREFIX) === start ? from : start, shard];
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

/**
 * For each frequent word, the sections a query of that word alone shows first, while the share of the
 * detail data they may cost lasts. This only chooses what the term shards carry: the engine ranks
 * (src/client/search/engine.ts), and a result whose section is not carried has its details loaded. So the
 * score below only needs to follow the engine's field weights closely enough to pick the same few.
 */
function shownSections(
  words: [string, IndexedWord][],
  index: SearchIndex,
  pageStart: readonly number[],
  sectionBytes: (id: number) => number,
): Map<string, number[]> {
  let budget = SHOWN_SHARE * index.pages.reduce((n, page) => n + detailBytes(page), 0);
  const byFrequency = [...words].sort(([a, x], [b, y]) => total(y) - total(x) || (a < b ? -1 : 1));
  const ranking = new FirstResults(index, pageStart);
  const shown = new Map<string, number[]>();
  for (const [key, word] of byFrequency) {
    if (budget <= 0) break;
    const ids = ranking.of(key, word);
    budget -= ids.reduce((n, id) => n + sectionBytes(id), 0);
    shown.set(key, ids);
  }
  return shown;
}

/** The engine's field weights for a one-word query, as far as choosing its first results goes. */
const PAGE_FIELD_QUALITY = [1, W_PAGE_NAME, W_FOLDER];
const INTRO = W_TITLE_INTRO;
const SECTION_OF_PAGE = W_TITLE_SECTION;
/** A one-word query is the whole of every title, name or heading field that holds it. */
const HEADING = W_HEADING * WHOLE_FIELD;
const TEXT = W_TEXT;
const MAX_PER_PAGE = 4;
/** Candidates kept while scoring: enough for `SHOWN_PER_WORD` with at most `MAX_PER_PAGE` from a page. */
const CANDIDATES = SHOWN_PER_WORD * MAX_PER_PAGE;

/**
 * The sections a query of one word ranks first. Scores are kept in arrays over every page and section,
 * reused from word to word: a large site has a hundred thousand sections and tens of thousands of words.
 */
class FirstResults {
  private readonly pageQuality: Float64Array;
  private readonly score: Float64Array;
  private readonly tier: Uint8Array;
  private readonly pageOf: Uint32Array;

  constructor(
    index: SearchIndex,
    private readonly pageStart: readonly number[],
  ) {
    const sections = pageStart[pageStart.length - 1] ?? 0;
    this.pageQuality = new Float64Array(index.pages.length);
    this.score = new Float64Array(sections);
    this.tier = new Uint8Array(sections);
    this.pageOf = new Uint32Array(sections);
    index.pages.forEach((_, p) => this.pageOf.fill(p, pageStart[p], pageStart[p + 1]));
    this.titleKeys = index.titleKeys;
    this.headingKeys = index.headingKeys;
  }

  private readonly titleKeys: Map<string, number[]>;
  private readonly headingKeys: Map<string, number[]>;

  /** At most twice `SHOWN_PER_WORD` sections, in section order. */
  of(key: string, word: IndexedWord): number[] {
    const { pageQuality, score, tier, pageOf, pageStart } = this;
    const pages: number[] = [];
    PAGE_FIELD_QUALITY.forEach((quality, field) => {
      for (const p of word.postings[field] ?? []) {
        if (pageQuality[p] === 0) pages.push(p);
        pageQuality[p] = Math.max(pageQuality[p] ?? 0, quality);
      }
    });
    const touched: number[] = [];
    const add = (id: number, value: number) => {
      if (score[id] === 0) touched.push(id);
      score[id] = (score[id] ?? 0) + value;
    };
    for (const p of pages) {
      const quality = pageQuality[p] ?? 0;
      add(pageStart[p] ?? 0, INTRO * quality * WHOLE_FIELD);
    }
    const inPage = (id: number) => {
      const p = pageOf[id] ?? 0;
      const quality = pageQuality[p] ?? 0;
      if (quality > 0 && pageStart[p] !== id && score[id] === 0) add(id, SECTION_OF_PAGE * quality);
    };
    for (const id of word.postings[FIELD.heading]) {
      inPage(id);
      add(id, HEADING);
    }
    for (const id of word.postings[FIELD.text]) {
      inPage(id);
      add(id, TEXT);
    }
    for (const p of this.titleKeys.get(key) ?? []) tier[pageStart[p] ?? 0] = 2;
    for (const id of this.headingKeys.get(key) ?? []) tier[id] ||= 1;
    // The first results of the word typed out, an exact title or heading first; and of a beginning of it
    // being typed, which is no title or heading of its own: those rank by score alone.
    const exactly = this.first(touched, (a, b) => (tier[a] ?? 0) - (tier[b] ?? 0) || (score[a] ?? 0) - (score[b] ?? 0));
    const typing = this.first(touched, (a, b) => (score[a] ?? 0) - (score[b] ?? 0));
    const first = [...new Set([...exactly, ...typing])];
    for (const id of touched) score[id] = 0;
    for (const p of this.titleKeys.get(key) ?? []) tier[pageStart[p] ?? 0] = 0;
    for (const id of this.headingKeys.get(key) ?? []) tier[id] = 0;
    for (const p of pages) pageQuality[p] = 0;
    return first.sort((a, b) => a - b);
  }

  /**
   * At most `SHOWN_PER_WORD` of the sections, in rank order, at most `MAX_PER_PAGE` of a page; `above`
   * is positive when section a ranks above section b, zero on a tie (then the earlier section first).
   */
  private first(touched: readonly number[], above: (a: number, b: number) => number): number[] {
    const before = (a: number, b: number) => above(a, b) || b - a;
    const best: number[] = [];
    for (const id of touched) {
      if (best.length === CANDIDATES && before(id, best[CANDIDATES - 1] ?? 0) <= 0) continue;
      let at = best.length === CANDIDATES ? CANDIDATES - 1 : best.length;
      while (at > 0 && before(id, best[at - 1] ?? 0) > 0) {
        best[at] = best[at - 1] ?? 0;
        at--;
      }
      best[at] = id;
    }
    const perPage = new Map<number, number>();
    const first: number[] = [];
    for (const id of best) {
      if (first.length >= SHOWN_PER_WORD) break;
      const p = this.pageOf[id] ?? 0;
      const n = perPage.get(p) ?? 0;
      if (n >= MAX_PER_PAGE) continue;
      perPage.set(p, n + 1);
      first.push(id);
    }
    return first;
  }
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
