/**
 * Text rules the search index (build) and the search engine (browser) must agree on: how text becomes
 * index terms, how a query becomes query terms, and how posting lists are written into the search file.
 */

/**
 * Longest excerpt kept per section: about two lines of the result list. The whole section still counts
 * for matching (its distinctive words ship as index terms); the excerpt is only what the reader sees.
 */
export const EXCERPT_LENGTH = 150;

/** Between the cells of a table in search text and excerpts: a word boundary a reader can see. */
export const CELL_SEPARATOR = ' · ';

/**
 * Words that say nothing about a section on their own, with their stems. They are left out of the text
 * index; in titles and headings they stay (short fields, and "how to" may be what the reader means).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between ' +
    'both but by can could did do does doing down during each either else etc ever every few for from further ' +
    'had has have having he her here hers him his how i if in into is it its itself just let me more most much ' +
    'must my no nor not now of off on once one only or other our ours out over own per same she should so some ' +
    'such than that the their theirs them then there these they this those through to too under until up upon ' +
    'us very via was we were what when where whether which while who whom whose why will with within without ' +
    'would yet you your yours'
  )
    .split(' ')
    .flatMap((word) => [word, stem(word)]),
);

/** Lowercase, accents folded, punctuation to spaces. */
export function normalizeText(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Letters without their accents (NFKD, combining marks dropped); case is kept. */
export function foldAccents(text: string): string {
  return ASCII.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

const ASCII = /^[ -~\s]*$/;

/** The words of a query or title, lowercased and folded: what the reader typed, for highlighting. */
export function tokenize(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/**
 * A light plural stemmer (after Harman's "S" stemmer) so "limit" finds "Rate limits" and "invocations"
 * finds "Daily invocation". Applied to index and query terms alike.
 */
export function stem(word: string): string {
  const n = word.length;
  if (n < 4 || word.charCodeAt(n - 1) !== 115 /* s */) return word;
  const before = word[n - 2] ?? '';
  if (before === 'e' && word[n - 3] === 'i' && word[n - 4] !== 'a' && word[n - 4] !== 'e') {
    return `${word.slice(0, -3)}y`;
  }
  if (before === 'u' || before === 's' || (before >= '0' && before <= '9')) return word;
  return word.slice(0, -1);
}

/** Index terms are at least two characters; long numbers and hash-like strings are not worth indexing. */
function keepTerm(term: string): boolean {
  return term.length >= 2 && term.length <= 24 && !LONG_NUMBER.test(term);
}

const LONG_NUMBER = /^\d{5,}$/;

/**
 * The index terms of a text, in order and with repeats, stemmed. Besides every word it yields the parts
 * and the joined form of compound tokens, so writers' and readers' spellings meet: `Node.js` gives
 * `node`, `js` and `nodejs`; `chunkSize` and `chunk_size` give `chunk`, `size` and `chunksize`;
 * `$auth` gives `auth`.
 */
export function indexTerms(
  text: string,
  termsOfChunk?: (chunk: string, ascii: boolean) => readonly string[],
): string[] {
  const out: string[] = [];
  const ascii = ASCII.test(text);
  for (const chunk of textChunks(text, ascii)) {
    if (termsOfChunk) out.push(...termsOfChunk(chunk, ascii));
    else chunkTerms(chunk, out, ascii);
  }
  return out;
}

/** A text's whitespace-separated chunks, accents folded: each gives its index terms on its own (`chunkTerms`). */
export function textChunks(text: string, ascii = ASCII.test(text)): string[] {
  return (ascii ? text : foldAccents(text)).split(WHITESPACE);
}

/**
 * Appends the index terms of one chunk of a text (see `indexTerms`) to `out`. A chunk's terms do not
 * depend on the text around it; `ascii` only picks expressions that are faster on plain ASCII and give
 * the same result on it.
 */
export function chunkTerms(chunk: string, out: string[], ascii = ASCII.test(chunk)): void {
  if (PLAIN_WORD.test(chunk)) {
    // Most words: lowercase letters and digits only.
    if (keepTerm(chunk)) out.push(stem(chunk));
    return;
  }
  const separators = ascii ? ASCII_SEPARATORS : SEPARATORS;
  const mixedCase = ascii ? ASCII_MIXED_CASE : MIXED_CASE;
  const words = chunk.split(separators).filter((w) => w !== '');
  for (const word of words) {
    const lower = word.toLowerCase();
    if (keepTerm(lower)) out.push(stem(lower));
    if (!mixedCase.test(word)) continue;
    for (const part of word.match(CASE_PARTS) ?? []) {
      const p = part.toLowerCase();
      if (p !== lower && keepTerm(p)) out.push(stem(p));
    }
  }
  if (words.length > 1 && words.length <= 3) {
    const joined = words.join('').toLowerCase();
    if (keepTerm(joined)) out.push(stem(joined));
  }
}

const WHITESPACE = /\s+/;
const PLAIN_WORD = /^[a-z0-9]+$/;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const ASCII_SEPARATORS = /[^A-Za-z0-9]+/;
/** A lowercase letter followed by an uppercase one, or an acronym followed by a word: `chunkSize`, `JSONParser`. */
const MIXED_CASE = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
const ASCII_MIXED_CASE = /[a-z][A-Z]|[A-Z]{2}[a-z]/;
const CASE_PARTS = /\p{Lu}+(?!\p{Ll})|\p{Lu}?[\p{Ll}\p{N}]+/gu;

export interface QueryTerm {
  /** The word as typed (lowercased, accents folded), for highlighting. */
  word: string;
  /** The stemmed form looked up in the index. */
  term: string;
  /** A stop word: it may add to a score but a result need not contain it. */
  stop: boolean;
}

/**
 * A title's or heading's stemmed words joined by spaces: the build files each title and heading under its
 * key, and a query whose stemmed words (`QueryTerm.term`, joined the same way) are exactly a key ranks
 * that title or heading first.
 */
export function phraseKey(text: string): string {
  return tokenize(text).map(stem).join(' ');
}

/** The words of a query; the last one may be unfinished and is matched as a prefix too. */
export function queryTerms(query: string): QueryTerm[] {
  return tokenize(query)
    .filter((word) => word.length <= 32)
    .map((word) => ({ word, term: stem(word), stop: STOP_WORDS.has(word) }));
}

// Posting lists: ascending ids written as gaps, each gap a base-32 number whose last digit comes from one
// alphabet and whose leading digits from another, so lists need no separators and stay JSON-safe.
const LAST_DIGIT = '0123456789abcdefghijklmnopqrstuv';
const MORE_DIGIT = 'wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';

/** Writes ascending ids as gap-coded digits. */
export function encodePostings(ids: readonly number[]): string {
  let out = '';
  let previous = -1;
  for (const id of ids) {
    let gap = id - previous - 1;
    previous = id;
    let digits = LAST_DIGIT[gap & 31] ?? '';
    gap >>>= 5;
    while (gap > 0) {
      digits = (MORE_DIGIT[gap & 31] ?? '') + digits;
      gap >>>= 5;
    }
    out += digits;
  }
  return out;
}

/** Per character code: a digit's value, plus 32 for a last digit; -1 for a character no list has. */
const DIGIT_VALUE = new Int8Array(128).fill(-1);
[...LAST_DIGIT].forEach((c, i) => (DIGIT_VALUE[c.charCodeAt(0)] = i + 32));
[...MORE_DIGIT].forEach((c, i) => (DIGIT_VALUE[c.charCodeAt(0)] = i));

/**
 * Reads a posting list written by `encodePostings`. A common word's list has tens of thousands of ids
 * and a first query decodes several, so this reads character codes through a table.
 */
export function decodePostings(text: string): number[] {
  const ids: number[] = [];
  let previous = -1;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const digit = code < 128 ? (DIGIT_VALUE[code] ?? -1) : -1;
    if (digit < 0) throw new Error(`bad posting digit ${JSON.stringify(text[i])}`);
    if (digit >= 32) {
      previous += value * 32 + digit - 32 + 1;
      ids.push(previous);
      value = 0;
    } else {
      value = value * 32 + digit;
    }
  }
  return ids;
}

/** The words of a page's route: its own name (last segment) and its folders. `/orgs/sso/okta/` → `okta`, `orgs sso`. */
export function routeWords(route: string): { name: string; folders: string } {
  const segments = route.split('/').filter((s) => s !== '');
  const words = (list: string[]) => list.join(' ').replace(/[-_.]+/g, ' ');
  return { name: words(segments.slice(-1)), folders: words(segments.slice(0, -1)) };
}

/** GitHub-style id of a plain ASCII heading; the index stores a section's id only when it differs. */
export function simpleSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}
