/**
 * A page's record: what the build knows about one page once its fragment is complete, made once and
 * never changed, and the part of it that ships in the manifest (`toPageMeta`).
 */
import type { PageFrontmatter, PageMeta } from '../../shared/types';
import { contentHash } from '../content-hash';
import type { PageAnalysis } from './markdown/analyze';
import type { SearchSection } from './markdown/sections';
import type { NeighbourReference } from './frontmatter';
import type { ContentFile } from '../scan/scan';
import type { StoredJson, StoredText, TextStore } from './text-store';

/**
 * Everything the build knows about one page; only `toPageMeta` decides what ships. Made once, by
 * `pageRecord`, and never changed: a stage that changes a page makes a new record.
 */
/**
 * The page file as the page pass read it: its size and time, and the digest of the bytes it rendered. A
 * later build tells an unchanged file by them (the render cache).
 */
export interface SourceStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly digest: string;
}

export interface PageSource {
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
  readonly analysis: Omit<PageAnalysis, 'sections'>;
  /** The page's search sections with their whole text, which only the search index reads. */
  readonly sections: StoredJson<SearchSection[]>;
  /** Content hash of the fragment, for its file name. */
  readonly hash: string;
  /** The code colour pairs its fragment uses (`c-LIGHT-DARK` classes), which the site's stylesheet defines. */
  readonly codeColours: readonly string[];
  /** Frontmatter `prev`/`next` routes, for the site-wide check. */
  readonly neighbours: NeighbourReference[];
  /**
   * Set when the file's whole body is a client-side redirect (see `clientRedirect`): the route (and
   * `#hash`) it sends readers to. Such a file is no page: the site turns it into a redirect.
   */
  readonly redirect?: { target: string; line: number; column: number };
}

/**
 * A page as the page pass leaves it: its fragment may still hold markers where highlighted code goes
 * (see `BlockHighlighter`), so it has no content hash yet. `pageRecord` makes the page of it.
 */
export type PageDraft = Omit<PageSource, 'hash' | 'codeColours'>;

/** A page's fragment with its code highlighted, and the code colours that HTML uses. */
export interface CompleteFragment {
  html: string;
  codeColours: readonly string[];
}

/** The page of a draft, with its fragment complete (kept in `texts`): the one place a page's record is made. */
export function pageRecord(draft: PageDraft, fragment: CompleteFragment, texts: TextStore): PageSource {
  const { html, codeColours } = fragment;
  return { ...draft, html: texts.put(html), hash: contentHash(html), codeColours };
}

/**
 * The records of the page pass's drafts, each fragment completed by `complete`, in the drafts' order. The
 * drafts are let go as their records are made (the array is left empty).
 */
export function pageRecords(
  drafts: PageDraft[],
  complete: (html: string, draft: PageDraft) => CompleteFragment,
  texts: TextStore,
): PageSource[] {
  const pages: PageSource[] = [];
  drafts.reverse();
  for (let draft = drafts.pop(); draft; draft = drafts.pop())
    pages.push(pageRecord(draft, complete(draft.html.read(), draft), texts));
  return pages;
}

/** The code colours of some pages' fragments together. */
export function coloursOf(pages: Iterable<PageSource>): Set<string> {
  const colours = new Set<string>();
  for (const page of pages) for (const colour of page.codeColours) colours.add(colour);
  return colours;
}

/** The one mapping from the build's page to the record that ships in the manifest. */
export function toPageMeta(page: PageSource, base: string): PageMeta {
  return {
    title: page.title,
    frontmatter: page.frontmatter,
    regularPath: page.route,
    relativePath: page.file.relativePath,
    key: page.key,
    path: page.route,
    headers: page.analysis.headers,
    description: page.description,
    fragment: `${base}assets/js/${fragmentFileName(page)}`,
  };
}

/** How every fragment's file name starts. */
export const FRAGMENT_FILE_PREFIX = 'page.';

export function fragmentFileName(page: PageSource): string {
  return `${FRAGMENT_FILE_PREFIX}${page.key}.${page.hash}.html`;
}
