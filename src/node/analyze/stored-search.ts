import type { DetailSection } from '../../shared/search-layout';
import type { PageSearch, SectionTerms } from './page-search';
import type { Stored, TextPlace, TextStore } from './text-store';

/**
 * The version of a page's stored search terms (`storedSearch`): the render cache renders every page again
 * when it changes.
 */
export const STORED_SEARCH_FORMAT = 1;

/**
 * The terms of stored pages, numbered: a stored page names its terms by number, so a build that takes
 * ten thousand pages from the cache reads each distinct term once (from this list) rather than each time
 * a page has it, and makes no string for it per page. Numbers are given as terms are first met and never
 * change, so a page stored by an earlier build reads the same with a longer list.
 */
export class SearchTermNumbers {
  private ids: Map<string, number> | undefined;

  /** `list`: every numbered term, by number. */
  constructor(readonly list: string[] = []) {}

  /** A term's number, a new one when it has none yet. */
  number(term: string): number {
    // Made only when a page is stored: a build that renders nothing never needs it.
    this.ids ??= new Map(this.list.map((known, n) => [known, n]));
    let n = this.ids.get(term);
    if (n === undefined) {
      this.ids.set(term, (n = this.list.length));
      this.list.push(term);
    }
    return n;
  }

  /** The term numbered `n`. */
  term(n: number): string {
    const term = this.list[n];
    if (term === undefined)
      throw new Error(`stored search terms name term ${n}, but only ${this.list.length} are numbered`);
    return term;
  }
}

/**
 * A page's search terms as the render cache stores them: the sections as shown, as JSON (they ship as
 * they are), then every term list as its length and its terms' numbers (`SearchTermNumbers`), each
 * number in as few bytes as it needs (seven bits a byte, the high bit set on all but its last byte).
 */
export function storedSearch(search: PageSearch, terms: SearchTermNumbers): Buffer {
  const out = new NumberWriter();
  const shown = Buffer.from(JSON.stringify(search.shown), 'utf8');
  out.number(shown.length);
  out.bytes(shown);
  const list = (words: readonly string[]) => {
    out.number(words.length);
    for (const word of words) out.number(terms.number(word));
  };
  list(search.title);
  list(search.name);
  list(search.folder);
  out.number(terms.number(search.key));
  out.number(search.sections.length);
  for (const section of search.sections) {
    list(section.heading);
    out.number(terms.number(section.key));
    list(section.excerpt);
    list(section.text);
    for (const count of section.counts) out.number(count);
  }
  return out.done();
}

/** A page's search terms from their stored form (`storedSearch`). */
export function searchFromStored(data: Uint8Array, terms: SearchTermNumbers): PageSearch {
  const read = new NumberReader(data);
  const shownBytes = read.number();
  const shown = JSON.parse(read.text(shownBytes)) as DetailSection[];
  const list = (): string[] => {
    const words: string[] = new Array<string>(read.number());
    for (let i = 0; i < words.length; i++) words[i] = terms.term(read.number());
    return words;
  };
  const title = list();
  const name = list();
  const folder = list();
  const key = terms.term(read.number());
  const sections: SectionTerms[] = new Array<SectionTerms>(read.number());
  for (let s = 0; s < sections.length; s++) {
    const heading = list();
    const sectionKey = terms.term(read.number());
    const excerptTerms = list();
    const text = list();
    const counts: number[] = new Array<number>(text.length);
    for (let i = 0; i < counts.length; i++) counts[i] = read.number();
    sections[s] = { heading, key: sectionKey, excerpt: excerptTerms, text, counts };
  }
  read.end();
  return { shown, title, name, folder, key, sections };
}

/**
 * Where a page's search terms go as the page is made (`SiteContext.search`): on the build's thread, into
 * the store in the form the render cache keeps (`storedSearchSink`), so that they are made into it once
 * and read back the way the cache's own pages are; on a page thread, held as they are until sent.
 */
export interface SearchSink {
  put(search: PageSearch): Stored<PageSearch>;
}

/** A page's terms in the store in their stored form: where they are, and the numbers they are written with. */
export interface PlacedSearch extends Stored<PageSearch> {
  readonly place: TextPlace;
  readonly terms: SearchTermNumbers;
}

/** Terms kept in memory as they are: a page thread's, which sends them on, or a page made alone. */
export const heldSearch: SearchSink = { put: (search) => ({ read: () => search }) };

/** Terms put in `texts` in their stored form, numbered by `terms` (the render cache's). */
export function storedSearchSink(texts: TextStore, terms: SearchTermNumbers): SearchSink {
  return { put: (search) => storedSearchAt(texts, texts.put(storedSearch(search, terms)).place, terms) };
}

/**
 * Where a page's terms are in `texts` in their stored form numbered by `terms`: where the sink put them,
 * else put there now (terms held in memory: a page a build made alone, or made with other numbers).
 */
export function storedPlaceOf(search: Stored<PageSearch>, texts: TextStore, terms: SearchTermNumbers): TextPlace {
  const placed: Partial<PlacedSearch> = search;
  if (placed.place && placed.terms === terms) return placed.place;
  return texts.put(storedSearch(search.read(), terms)).place;
}

/** The terms stored at `place` in `texts`, numbered by `terms`, read each time they are needed. */
export function storedSearchAt(texts: TextStore, place: TextPlace, terms: SearchTermNumbers): PlacedSearch {
  return { place, terms, read: () => searchFromStored(texts.bytes(place), terms) };
}

/** Writes numbers, seven bits a byte, into a buffer that grows as needed. */
class NumberWriter {
  private buffer = Buffer.allocUnsafe(4096);
  private length = 0;

  number(n: number): void {
    this.room(5);
    while (n >= 0x80) {
      this.buffer[this.length++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buffer[this.length++] = n;
  }

  bytes(data: Uint8Array): void {
    this.room(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  done(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }
}

/** Reads what a `NumberWriter` wrote; a stored form cut short or run on is an error. */
class NumberReader {
  private at = 0;

  constructor(private readonly data: Uint8Array) {}

  number(): number {
    // Most numbers (counts, the first terms numbered) fit in one byte.
    const first = this.data[this.at];
    if (first !== undefined && first < 0x80) {
      this.at++;
      return first;
    }
    let n = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = this.data[this.at++];
      if (byte === undefined || shift > 28) throw new Error('stored search terms are cut short or damaged');
      n += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return n;
    }
  }

  text(bytes: number): string {
    if (this.at + bytes > this.data.length) throw new Error('stored search terms are cut short or damaged');
    const text = Buffer.from(this.data.buffer, this.data.byteOffset + this.at, bytes).toString('utf8');
    this.at += bytes;
    return text;
  }

  end(): void {
    if (this.at !== this.data.length) throw new Error('stored search terms run on past their end');
  }
}
