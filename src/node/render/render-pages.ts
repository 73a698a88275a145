/**
 * The render stage: each page's fragment finished once, with its code highlighted and its links to
 * legacy heading ids pointed at the headings' own ids, then hashed; the one place a page's record
 * (`PageSource`) is made.
 */
import type { AnalyzedPage, CompletePage, PageDraft, PageSource } from '../analyze/page-record';
import type { RenderedPage } from '../analyze/render-cache';
import type { TextStore } from '../analyze/text-store';
import { escapeHtml } from '../analyze/markdown/escape';
import { contentHash } from '../content-hash';
import type { AssembledSite, LegacyLink, Site } from '../site/assemble';
import type { CompleteFragment, HighlightedCode } from './highlight/highlight-blocks';

/** The page of a draft whose fragment is complete (kept in `texts`). */
export function completePage(
  draft: PageDraft,
  fragment: Pick<CompleteFragment, 'html' | 'codeColours'>,
  texts: TextStore,
): CompletePage {
  const { html, codeColours } = fragment;
  return { ...draft, html: texts.put(html), hash: contentHash(html), codeColours };
}

/**
 * The site's pages rendered, in its order: every draft's code put in from `code`, and every page given its
 * key and its legacy links. Also the drafts as complete pages with their code blocks' keys, in the order
 * analyzed, for the render cache: a file the site leaves out (a redirect) is kept there too.
 */
export function renderSite(
  analyzed: readonly AnalyzedPage[],
  site: AssembledSite<AnalyzedPage>,
  code: HighlightedCode,
  texts: TextStore,
): { site: Site<PageSource>; rendered: RenderedPage[] } {
  const rendered: RenderedPage[] = [];
  const completed = new Map<AnalyzedPage, CompletePage>();
  for (const page of analyzed) {
    if (isComplete(page)) continue;
    const fragment = code.complete(page.html.read());
    const done = completePage(page, fragment, texts);
    if (fragment.highlighted) rendered.push({ page: done, code: fragment.code });
    completed.set(page, done);
  }
  const complete = (page: AnalyzedPage) => completed.get(page) ?? (page as CompletePage);
  return { site: finishSite(site, complete, texts), rendered };
}

/** The pages of a site whose fragments are complete (`npm run dev` highlights as it renders). */
export function renderCompleteSite(site: AssembledSite<CompletePage>, texts: TextStore): Site<PageSource> {
  return finishSite(site, (page) => page, texts);
}

function finishSite<Page>(
  site: AssembledSite<Page>,
  complete: (page: Page) => CompletePage,
  texts: TextStore,
): Site<PageSource> {
  const pages = site.pages.map((page) => {
    const key = site.keys.get(page) ?? '';
    return withLinks({ ...complete(page), key }, site.legacyLinks.get(page), texts);
  });
  return { pages, sidebar: site.sidebar, redirects: site.redirects };
}

/**
 * The page with its links to legacy heading ids leading to the headings' own ids. The fragment is cached
 * with the links as written, as what they lead to depends on the other pages.
 */
function withLinks(page: PageSource, links: readonly LegacyLink[] | undefined, texts: TextStore): PageSource {
  if (!links) return page;
  let html = page.html.read();
  for (const { written, resolved } of links) {
    html = html.split(`href="${escapeHtml(written)}"`).join(`href="${escapeHtml(resolved)}"`);
  }
  return { ...page, html: texts.put(html), hash: contentHash(html) };
}

function isComplete(page: AnalyzedPage): page is CompletePage {
  return 'hash' in page;
}
