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
