/**
 * A page's record: what the build knows about one page once its fragment is complete, made once and
 * never changed, and the part of it that ships in the manifest (`toPageMeta`).
 */
import type { PageFrontmatter, PageMeta } from '../../shared/types';
import type { PageAnalysis } from './markdown/analyze';
import type { NeighbourReference } from './frontmatter';
import type { PageSearch } from './page-search';
import type { ContentFile } from '../scan/scan';
import type { Stored, StoredText } from './text-store';

/**
 * The page file as the page pass read it: its size and time, and the digest of the bytes it rendered. A
 * later build tells an unchanged file by them (the render cache).
 */
export interface SourceStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly digest: string;
}

/**
 * Everything the build knows about one page; only `toPageMeta` decides what ships. Made once, by the
 * site stage (src/node/site/page-records.ts) from the page pass's `CompletePage`, and never changed.
 */
export interface PageRecord {
  readonly file: ContentFile;
  readonly source: SourceStamp;
  readonly route: string;
  readonly key: string;
  readonly frontmatter: PageFrontmatter;
  readonly title: string;
  readonly description: string;
  /** Fragment HTML, code highlighted; in the build's text store, as large sites have too much to hold. */
  readonly html: StoredText;
  /** The page as markdown for readers and tools (the `.md` twin): its title, then the body, constants resolved. */
  readonly markdown: StoredText;
  readonly analysis: Omit<PageAnalysis, 'sections' | 'twinEdits'>;
  /** What the search index takes from the page, its text already in index terms. */
  readonly search: Stored<PageSearch>;
  /** Content hash of the fragment, for its file name. */
  readonly hash: string;
  /** The code colour pairs its fragment uses (`c-LIGHT-DARK` classes), which the site's stylesheet defines. */
  readonly codeColours: readonly string[];
  /**
   * The classes its formulas are drawn with (`ks-…`, math-styles.ts), which the site's stylesheet defines;
   * none on a page without math, which then links no math stylesheet.
   */
  readonly mathClasses: readonly string[];
  /** Frontmatter `prev`/`next` routes, for the site-wide check. */
  readonly neighbours: NeighbourReference[];
  /**
   * Set when the file's whole body is a client-side redirect (see `clientRedirect`): the route (and
   * `#hash`) it sends readers to. Such a file is no page: the site turns it into a redirect.
   */
  readonly redirect?: { target: string; line: number; column: number };
}

/**
 * A page as the page pass makes it (its fragment complete, its code highlighted), before the site gives
 * it its key and points its links at renamed headings: what the render cache keeps, as neither depends
 * on the page alone.
 */
export type CompletePage = Omit<PageRecord, 'key'>;

/** The code colours a fragment uses, as `light-dark` pairs: one per `c-LIGHT-DARK` class the highlighter writes. */
export function codeColours(html: string): string[] {
  const pairs = new Set<string>();
  for (const m of html.matchAll(/\bc-([0-9a-f]{6,8})-([0-9a-f]{6,8})\b/g)) pairs.add(`${m[1]}-${m[2]}`);
  return [...pairs];
}

/** The code colours of some pages' fragments together. */
export function coloursOf(pages: Iterable<Pick<PageRecord, 'codeColours'>>): Set<string> {
  const colours = new Set<string>();
  for (const page of pages) for (const colour of page.codeColours) colours.add(colour);
  return colours;
}

/**
 * What the site's stylesheet defines for some pages: their code colours and their formulas' classes. A
 * page that brings one the stylesheet lacks needs a new stylesheet (`npm run dev`).
 */
export function stylesOf(pages: Iterable<Pick<PageRecord, 'codeColours' | 'mathClasses'>>): Set<string> {
  const styles = new Set<string>();
  for (const page of pages) for (const style of [...page.codeColours, ...page.mathClasses]) styles.add(style);
  return styles;
}

/** The one mapping from the build's page to the record that ships in the manifest. */
export function toPageMeta(page: PageRecord, base: string): PageMeta {
  return {
    title: page.title,
    frontmatter: page.frontmatter,
    regularPath: page.route,
    relativePath: page.file.madeFrom ?? page.file.relativePath,
    key: page.key,
    path: page.route,
    headers: page.analysis.headers,
    description: page.description,
    fragment: `${base}assets/js/${fragmentFileName(page)}`,
  };
}

/** How every fragment's file name starts. */
export const FRAGMENT_FILE_PREFIX = 'page.';

export function fragmentFileName(page: PageRecord): string {
  return `${FRAGMENT_FILE_PREFIX}${page.key}.${page.hash}.html`;
}
