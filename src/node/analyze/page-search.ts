import type { DetailSection } from '../../shared/search-layout';
import {
  EXCERPT_LENGTH,
  STOP_WORDS,
  chunkTerms,
  indexTerms,
  phraseKey,
  routeWords,
  simpleSlug,
} from '../../shared/search-text';
import { excerpt } from '../excerpt';
import type { SearchSection } from './markdown/sections';

/**
 * What the search index takes from one page, its text already turned into index terms. Nothing in it
 * depends on the other pages, so it is made once, when the page is analyzed, and kept with the page in
 * the render cache: a build tokenizes only the pages it renders. The site's index
 * (src/node/site/search-index.ts) numbers the sections and weighs the text terms across the whole site.
 */
export interface PageSearch {
  /** The page's sections as a result shows them, its intro first. */
  shown: DetailSection[];
  /** The distinct terms of the title, the page's name and its folders, stop words included. */
  title: string[];
  name: string[];
  folder: string[];
  /** The title's key (`phraseKey`), '' when it has none. */
  key: string;
  /** Per section of `shown`, in the same order. */
  sections: SectionTerms[];
}

/** What one section gives the index. */
export interface SectionTerms {
  /** The distinct terms of its heading, stop words included (none for the intro). */
  heading: string[];
  /** Its heading's key (`phraseKey`), '' for the intro or a heading without words. */
  key: string;
  /** The distinct terms of its excerpt, stop words left out. */
  excerpt: string[];
  /**
   * The other terms of its whole text, with how often each occurs (`counts`, in the same order): those its
   * title, page name, heading and excerpt do not already give, stop words left out. The site keeps the
   * most distinctive of them.
   */
  text: string[];
  counts: number[];
}

/** A page's search terms, from its title, route, description and search sections. */
export function pageSearch(
  title: string,
  route: string,
  description: string,
  sections: readonly SearchSection[],
): PageSearch {
  const words = routeWords(route);
  const titleTerms = new Set(termsOf(title));
  const nameTerms = new Set(termsOf(words.name));
  const result: PageSearch = {
    shown: [],
    title: [...titleTerms],
    name: [...nameTerms],
    folder: [...new Set(termsOf(words.folders))],
    key: phraseKey(title),
    sections: [],
  };
  /** A section's entry; its text terms are the words its title, page name, heading and excerpt do not already give. */
  const section = (text: string, x: string, headingTerms: ReadonlySet<string>, key: string): SectionTerms => {
    const excerptTerms = new Set(termsOf(x));
    const known = (term: string) =>
      titleTerms.has(term) || nameTerms.has(term) || headingTerms.has(term) || excerptTerms.has(term);
    const counted = countedTerms(text, known);
    return {
      heading: [...headingTerms],
      key,
      excerpt: [...excerptTerms].filter((term) => !STOP_WORDS.has(term)),
      text: [...counted.keys()],
      counts: [...counted.values()],
    };
  };
  const intro = sections[0]?.level === 1 ? sections[0] : undefined;
  // The page description is the intro's excerpt (README: "meta description and search excerpt").
  const introExcerpt = excerpt(description || (intro?.text ?? ''), EXCERPT_LENGTH);
  result.shown.push(['', introExcerpt, 1]);
  result.sections.push(section(`${description} ${intro?.text ?? ''}`, introExcerpt, new Set(), ''));
  for (const { level, heading, slug, text } of sections) {
    if (level === 1) continue;
    const x = excerpt(text, EXCERPT_LENGTH);
    const l = level === 3 ? 3 : 2;
    result.shown.push(slug === simpleSlug(heading) ? [heading, x, l] : [heading, x, l, slug]);
    result.sections.push(section(text, x, new Set(termsOf(heading)), phraseKey(heading)));
  }
  return result;
}

/** A text's terms with how often each occurs, leaving out stop words and those `known` says the section has. */
function countedTerms(text: string, known: (term: string) => boolean): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of termsOf(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  for (const term of counts.keys()) if (known(term) || STOP_WORDS.has(term)) counts.delete(term);
  return counts;
}

/**
 * Distinct chunks of text kept with their terms, at most this many. A site's text repeats its words far
 * more often than it has them, so each is turned into terms about once (in a build, or in a dev session,
 * where the list stays for the next rebuild); past the limit the list starts again, which only costs time.
 */
const CHUNKS_KEPT = 200_000;
/**
 * Only chunks shorter than this are kept: V8 copies a shorter piece of a string, but a longer one points
 * into the string it was cut from, and as a key it would keep that page's whole text alive.
 */
const KEPT_CHUNK_LENGTH = 13;
const chunkCache = new Map<string, readonly string[]>();

/** A text's index terms (`indexTerms`), each distinct chunk of it turned into terms once. */
const termsOf = (text: string): string[] => indexTerms(text, chunkTermsOnce);

/** A chunk's terms (`chunkTerms`), each distinct chunk turned into terms once. */
function chunkTermsOnce(chunk: string, ascii: boolean): readonly string[] {
  let terms = chunkCache.get(chunk);
  if (terms === undefined) {
    const out: string[] = [];
    chunkTerms(chunk, out, ascii);
    if (chunk.length >= KEPT_CHUNK_LENGTH) return out;
    if (chunkCache.size >= CHUNKS_KEPT) chunkCache.clear();
    chunkCache.set(chunk, (terms = out));
  }
  return terms;
}

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

  constructor(private readonly terms: string[] = []) {}

  /** How many terms are numbered. */
  get size(): number {
    return this.terms.length;
  }

  /** Every numbered term, by number. */
  get list(): readonly string[] {
    return this.terms;
  }

  /** A term's number, a new one when it has none yet. */
  number(term: string): number {
    // Made only when a page is stored: a build that renders nothing never needs it.
    this.ids ??= new Map(this.terms.map((known, n) => [known, n]));
    let n = this.ids.get(term);
    if (n === undefined) {
      this.ids.set(term, (n = this.terms.length));
      this.terms.push(term);
    }
    return n;
  }

  /** The term numbered `n`. */
  term(n: number): string {
    const term = this.terms[n];
    if (term === undefined)
      throw new Error(`stored search terms name term ${n}, but only ${this.terms.length} are numbered`);
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
