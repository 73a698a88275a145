import path from 'node:path';
import { sourceDigest } from '../content-hash';
import type { Diagnostic } from '../diagnostics';
import { STORED_SEARCH_FORMAT } from './stored-search';
import type { CompletePage } from './page-record';
import type { TextPlace } from './cache-segment';

/** The render cache's index of pages, in the cache folder. */
export const INDEX_FILE = 'index.jsonl';
const FORMAT = 5;

/**
 * A page as the cache keeps it. Its record says what it was made from: the file's stamp (`source`), the
 * stamps of the files it copies (`analysis.assets`) and the files it names but did not copy
 * (`analysis.uncopied`).
 */
export interface CachedPage {
  record: Omit<CompletePage, 'file' | 'html' | 'markdown' | 'search'>;
  /** The problems the page pass reported in the page's file, in the order it reported them. */
  problems: Omit<Diagnostic, 'file'>[];
  html: TextPlace;
  markdown: TextPlace;
  search: TextPlace;
  /** Keys of the page's highlighted code blocks, which the highlight cache keeps while the page is reused. */
  code: string[];
  /** The fragment's hash once its legacy links were pointed, and which links those were (`LinkedHashes`). */
  linked?: [links: string, hash: string];
}

/** The index's first line: the identity of the builds it is for, and the file of its numbered search terms. */
export type IdentityLine = [identity: string, terms: string];

/** An index line after the first: a page file's relative path and what the cache holds of it. */
export type IndexLine = [file: string, page: CachedPage];

export const TERMS_FILE = /^terms\.[0-9a-z.]+\.json$/;

/** The segments some entries' texts are in. */
export function segmentsOf(entries: readonly CachedPage[]): Set<string> {
  return new Set(entries.flatMap((entry) => [entry.html[0], entry.markdown[0], entry.search[0]]));
}

/** The index file's lines, in batches of about a megabyte. */
export function* indexLines(
  identity: IdentityLine,
  pages: Record<string, CachedPage>,
  read: WeakMap<CachedPage, string>,
): Generator<string> {
  let batch = `${JSON.stringify(identity)}\n`;
  for (const line of Object.entries(pages)) {
    batch += `${read.get(line[1]) ?? JSON.stringify(line satisfies IndexLine)}\n`;
    if (batch.length >= 1 << 20) {
      yield batch;
      batch = '';
    }
  }
  yield batch;
}

/**
 * What a page's render depends on besides its file and its images: the cache's format, the content
 * folder, the site's settings, and the build's own code (the Node side of `src/` and the locked package
 * versions). Any change renders every page again.
 */
export function renderIdentity(srcDir: string, contentDir: string, settings: unknown): string {
  const preamble = `${FORMAT}.${STORED_SEARCH_FORMAT}\0${path.resolve(contentDir)}\0${JSON.stringify(settings)}`;
  return sourceDigest(srcDir, ['node', 'shared', '../package-lock.json'], preamble);
}
