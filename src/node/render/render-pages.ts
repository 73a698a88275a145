/**
 * The render stage: each page's fragment finished, with its code highlighted and its links to legacy
 * heading ids pointed at the headings' own ids, then hashed; the one place a page's record (`PageSource`)
 * is made. It stores nothing: a page's text is in the text store once, as the analyze stage left it, and
 * its code is put in again each time it is read (by the render cache, the fragment's file and the
 * prerender), which costs less than a second copy of every fragment with code, on disk on a large site.
 */
import type { AnalyzedPage, CompletePage, PageDraft, PageSource } from '../analyze/page-record';
import type { LinkedHashes, RenderedPage } from '../analyze/render-cache';
import type { StoredText } from '../analyze/text-store';
import { escapeHtml } from '../analyze/markdown/escape';
import { mathClasses } from '../analyze/markdown/math-styles';
import { contentHash, digestOfAll } from '../content-hash';
import type { AssembledSite, LegacyLink, Site } from '../site/assemble';
import { codeColours } from './highlight/css';
import type { HighlightedCode } from './highlight/highlight-blocks';

/** The page of a draft, given its complete fragment `html` and where that is stored. */
export function completePage(draft: PageDraft, html: string, stored: StoredText): CompletePage {
  return {
    ...draft,
    html: stored,
    hash: contentHash(html),
    codeColours: codeColours(html),
    mathClasses: mathClasses(html),
  };
}

/**
 * The site's pages rendered, in its order: every draft's code put in from `code`, and every page given its
 * key and its legacy links. Also the drafts as complete pages with their code blocks' keys, in the order
 * analyzed, for the render cache: a file the site leaves out (a redirect) is kept there too. `linked`
 * knows the hashes of fragments with legacy links from earlier builds (the render cache).
 */
export function renderSite(
  analyzed: readonly AnalyzedPage[],
  site: AssembledSite<AnalyzedPage>,
  code: HighlightedCode,
  linked?: LinkedHashes,
): { site: Site<PageSource>; rendered: RenderedPage[] } {
  const rendered: RenderedPage[] = [];
  const completed = new Map<AnalyzedPage, CompletePage>();
  for (const page of analyzed) {
    if (isComplete(page)) continue;
    const draft = page.html;
    const fragment = code.complete(draft.read());
    const html = fragment.code.length > 0 ? { read: () => code.fill(draft.read()) } : draft;
    const done = completePage(page, fragment.html, html);
    if (fragment.highlighted) rendered.push({ page: done, code: fragment.code });
    completed.set(page, done);
  }
  const complete = (page: AnalyzedPage) => completed.get(page) ?? (page as CompletePage);
  return { site: renderCompleteSite(site, complete, linked), rendered };
}

/** The pages of a site whose fragments are complete (`npm run dev` highlights as it analyzes). */
export function renderCompleteSite<Page>(
  site: AssembledSite<Page>,
  complete: (page: Page) => CompletePage,
  linked?: LinkedHashes,
): Site<PageSource> {
  const pages = site.pages.map((page) => {
    const key = site.keys.get(page) ?? '';
    return withLinks({ ...complete(page), key }, site.legacyLinks.get(page), linked);
  });
  return { pages, sidebar: site.sidebar, redirects: site.redirects };
}

/**
 * The page with its links to legacy heading ids leading to the headings' own ids, as its fragment is
 * read: the fragment stays stored (and cached) with the links as written, as what they lead to depends
 * on the other pages. Its hash is that of the fragment so read; `linked` may know it from an earlier
 * build, which spares reading the fragment of every such page on every build.
 */
function withLinks(page: PageSource, links: readonly LegacyLink[] | undefined, linked?: LinkedHashes): PageSource {
  if (!links) return page;
  const written = page.html;
  const read = () => {
    let html = written.read();
    for (const link of links) {
      html = html.split(`href="${escapeHtml(link.written)}"`).join(`href="${escapeHtml(link.resolved)}"`);
    }
    return html;
  };
  const file = page.file.relativePath;
  const linksKey = digestOfAll([page.hash, ...links.flatMap((link) => [link.written, link.resolved])]);
  const hash = linked?.get(file, linksKey) ?? contentHash(read());
  linked?.set(file, linksKey, hash);
  return { ...page, html: { read }, hash };
}

function isComplete(page: AnalyzedPage): page is CompletePage {
  return 'hash' in page;
}
