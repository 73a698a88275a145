import { WrongContentError } from '../data/fetch-chunk';
import { parseJson } from '../data/parse';
import { decodePostings } from '../../shared/search-text';
import {
  TERM_FIELDS,
  letterOf,
  shardFile,
  shardFiles,
  shardFor,
  shardKindOf,
  type DetailPage,
  type DetailShard,
  type LetterShard,
  type SearchEntry,
  type ShardKind,
  type StoredRanking,
  type TermShard,
} from '../../shared/search-layout';
import { LetterView, lowerBound, type HeadField, type RankingData } from '../../shared/search-vocabulary';

const HEAD_FIELDS: readonly HeadField[] = ['title', 'name', 'folder', 'heading'];
const TEXT_FIELD = TERM_FIELDS.indexOf('text');

/**
 * The search data the worker has so far: the entry, and the shards loaded for earlier queries. Every
 * lookup either answers from a loaded shard or notes the file it needs and answers as if the word were
 * unknown; the engine runs a query, and when files were noted the worker loads them and runs it again
 * (see `runQuery`). The layout itself is src/shared/search-layout.ts.
 */
export class SearchShards implements RankingData {
  /** Sections of page p are the ids from `pageStart[p]` to `pageStart[p + 1]`; the first is its intro. */
  readonly pageStart: Uint32Array;
  readonly pageOf: Uint32Array;
  private readonly letters = new Map<string, LetterView>();
  private readonly terms = new Map<string, TermView>();
  private readonly details = new Map<string, DetailShard>();
  /** The sections term shards carried, by page: `r` holds those sections only. */
  private readonly shown = new Map<number, DetailPage>();
  private readonly missing = new Set<string>();

  constructor(private readonly entry: SearchEntry) {
    const pages = entry.sections.length;
    this.pageStart = new Uint32Array(pages + 1);
    entry.sections.forEach((n, p) => (this.pageStart[p + 1] = (this.pageStart[p] ?? 0) + n));
    this.pageOf = new Uint32Array(this.pageStart[pages] ?? 0);
    entry.sections.forEach((n, p) => this.pageOf.fill(p, this.pageStart[p], (this.pageStart[p] ?? 0) + n));
  }

  /** Number of sections. */
  get size(): number {
    return this.pageOf.length;
  }

  get pages(): number {
    return this.entry.sections.length;
  }

  /** Shard files not loaded yet. */
  unloaded(): string[] {
    const loaded = (file: string) => this.letters.has(file) || this.terms.has(file) || this.details.has(file);
    return shardFiles(this.entry).filter((file) => !loaded(file));
  }

  /** The files lookups needed since the last call and did not have. */
  takeMissing(): string[] {
    const files = [...this.missing];
    this.missing.clear();
    return files;
  }

  /** Reads a shard file's text (any file the entry names); throws `WrongContentError` if it is not one. */
  read(file: string, text: string): void {
    const shard = parseJson(text) as Partial<LetterShard & TermShard & DetailShard> | null;
    const kind = shardKindOf(file);
    if (kind === 'letters' && typeof shard?.w === 'string' && Array.isArray(shard.f) && shard.fuzzy) {
      this.letters.set(file, new LetterView(shard as LetterShard));
    } else if (kind === 'terms' && typeof shard?.w === 'string' && shard.p?.length === TERM_FIELDS.length) {
      this.terms.set(file, new TermView(shard as TermShard));
      for (const [p, t, u, sections] of shard.s ?? []) {
        let page = this.shown.get(p);
        if (!page) this.shown.set(p, (page = { t, u, r: [] }));
        for (const [n, ...section] of sections) page.r[n] = section;
      }
    } else if (kind === 'details' && Array.isArray(shard?.pages)) {
      this.details.set(file, shard as DetailShard);
    } else {
      throw new WrongContentError(false);
    }
  }

  /** The vocabulary of a word's first character. */
  letter(word: string): LetterView | undefined {
    return this.find(this.letters, 'letters', letterOf(word));
  }

  /** Per head field, the pages (title, name, folder) or sections (heading) whose field holds `word`. */
  headPostings(word: string): Record<HeadField, readonly number[]> {
    const view = this.find(this.terms, 'terms', word);
    const lists = HEAD_FIELDS.map((field, f): [HeadField, readonly number[]] => [field, view?.list(word, f) ?? []]);
    return Object.fromEntries(lists) as Record<HeadField, readonly number[]>;
  }

  /**
   * Notes the term file of `word` if it is not loaded: asked for before the vocabulary says the word is
   * there, it comes in the same round as the vocabulary.
   */
  expectPostings(word: string): void {
    this.find(this.terms, 'terms', word);
  }

  /** Sections whose text holds `word`. */
  textPostings(word: string): readonly number[] {
    return this.find(this.terms, 'terms', word)?.list(word, TEXT_FIELD) ?? [];
  }

  /** Pages whose title, and sections whose heading, is exactly `key` (stemmed words joined by spaces). */
  exact(key: string): { titles: readonly number[]; headings: readonly number[] } {
    const view = this.find(this.terms, 'terms', key);
    return { titles: view?.keyed(key, 'kt') ?? [], headings: view?.keyed(key, 'kh') ?? [] };
  }

  /**
   * The ranking the build stored for a query key (`rankingKey`), from the term file of its word range;
   * undefined when that file has none, or is not loaded (then noted as missing).
   */
  storedRanking(key: string): StoredRanking | undefined {
    return this.find(this.terms, 'terms', key)?.stored(key);
  }

  /**
   * What a result of page p shows, for its sections at positions `sections` (0 is the intro): from a term
   * shard that carried them all, else from the page's detail shard.
   */
  detail(p: number, sections: readonly number[]): DetailPage | undefined {
    const shown = this.shown.get(p);
    if (shown && sections.every((n) => shown.r[n] !== undefined)) return shown;
    const firsts = this.entry.details;
    return this.find(this.details, 'details', p)?.pages[p - (firsts[shardFor(firsts, p)] ?? 0)];
  }

  /** The loaded shard of `kind` that holds `key`, or undefined with its file noted as missing. */
  private find<T>(loaded: Map<string, T>, kind: ShardKind, key: string | number): T | undefined {
    const firsts: readonly (string | number)[] = this.entry[kind];
    if (firsts.length === 0) return undefined;
    const file = shardFile(this.entry, kind, shardFor(firsts, key));
    const view = loaded.get(file);
    if (!view) this.missing.add(file);
    return view;
  }
}

/** One term shard; a list is decoded the first time a query reads it. */
class TermView {
  private readonly words: string[];
  private readonly lists: string[][];
  private readonly decoded = new Map<string, number[]>();
  private keys: { k: string[]; kt: string[]; kh: string[] } | undefined;

  constructor(private readonly shard: TermShard) {
    this.words = shard.w === '' ? [] : shard.w.split(' ');
    this.lists = shard.p.map((field) => field.split(' '));
  }

  stored(key: string): StoredRanking | undefined {
    const { q } = this.shard;
    // The file's JSON object: a key such as "constructor" is no ranking of its own.
    return q && Object.hasOwn(q, key) ? q[key] : undefined;
  }

  list(word: string, field: number): readonly number[] {
    const v = lowerBound(this.words, word);
    if (this.words[v] !== word) return [];
    return this.decode(`${field} ${word}`, this.lists[field]?.[v] ?? '');
  }

  keyed(key: string, which: 'kt' | 'kh'): readonly number[] {
    const { k = '', kt = '', kh = '' } = this.shard;
    this.keys ??= { k: k === '' ? [] : k.split('\n'), kt: kt.split(' '), kh: kh.split(' ') };
    const v = lowerBound(this.keys.k, key);
    if (this.keys.k[v] !== key) return [];
    return this.decode(`${which} ${key}`, this.keys[which][v] ?? '');
  }

  private decode(id: string, text: string): number[] {
    let ids = this.decoded.get(id);
    if (!ids) this.decoded.set(id, (ids = decodePostings(text)));
    return ids;
  }
}
