/**
 * The end of the site stage: each page given its key and its links to legacy heading ids pointed at the headings'
 * own ids, with a hash for the fragment so linked; the one place a page's record (`PageRecord`) is made.
 * Its fragment is complete already (the page pass highlights code as it goes).
 */
import type { CompletePage, PageRecord } from '../analyze/page-record';
import { escapeHtml } from '../analyze/markdown/escape';
import { contentHash, digestOfAll } from '../content-hash';
import type { AssembledSite, LegacyLink, Site } from './assemble';

/** An `href` attribute as the renderer writes it: its value escaped, so without a quote. */
const HREF_ATTRIBUTE = /href="([^"]*)"/g;

/** The site's pages with their keys and legacy links. */
export function pageRecords(site: AssembledSite<CompletePage>): Site<PageRecord> {
  const pages = site.pages.map((page) => {
    const key = site.keys.get(page) ?? '';
    return withLinks({ ...page, key }, site.legacyLinks.get(page));
  });
  return { pages, sidebar: site.sidebar, redirects: site.redirects };
}

/**
 * The page with its links to legacy heading ids leading to the headings' own ids, as its fragment is
 * read: the fragment stays stored (and cached) with the links as written, as what they lead to depends
 * on the other pages. Its hash is made of what the fragment so read is made of, the stored fragment's hash
 * and the links, as a page served under another base is named (analyze/page-place.ts): the same
 * fragment, the same name, without reading it to find out.
 */
function withLinks(page: PageRecord, links: readonly LegacyLink[] | undefined): PageRecord {
  if (!links) return page;
  const written = page.html;
  const resolved = new Map(links.map((link) => [escapeHtml(link.written), escapeHtml(link.resolved)]));
  // One pass over the fragment, however many links it has: it is read for each file made of it.
  const read = () =>
    written.read().replace(HREF_ATTRIBUTE, (attribute, url: string) => {
      const to = resolved.get(url);
      return to === undefined ? attribute : `href="${to}"`;
    });
  const hash = contentHash(digestOfAll([page.hash, ...links.flatMap((link) => [link.written, link.resolved])]));
  return { ...page, html: { read }, hash };
}
