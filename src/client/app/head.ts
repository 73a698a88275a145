import { useEffect } from 'react';
import { headFor, type HeadData } from '../../shared/head';
import type { PageMeta, SiteSettings } from '../../shared/types';
import { afterPaint } from './next-task';

/**
 * Keeps <title>, <html lang>, the description, canonical link and Open Graph tags on the current page.
 * The language and the stylesheets a page needs are set before its first frame, which they change; the
 * title and the tags once it has been painted: nothing on screen shows them, and setting the title costs
 * the frame that shows a clicked page a few milliseconds.
 */
export function usePageHead(site: SiteSettings, page: PageMeta | undefined): void {
  useEffect(() => {
    const head = headFor(site, page);
    // Written only when it differs: setting `lang` on <html>, even to the value it has, restyles the whole
    // document, and on the prerendered page it is right already.
    if (document.documentElement.lang !== head.lang) document.documentElement.lang = head.lang;
    addStylesheets(page?.stylesheets ?? []);
    return afterPaint(() => writeHead(head));
  }, [site, page]);
}

function writeHead(head: HeadData): void {
  if (document.title !== head.title) document.title = head.title;
  setMeta('name', 'description', head.description);
  setMeta('property', 'og:title', head.title);
  setMeta('property', 'og:description', head.description);
  setMeta('property', 'og:url', head.canonical ?? '');
  let canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (head.canonical) {
    if (!canonical) {
      canonical = document.createElement('link');
      canonical.rel = 'canonical';
      document.head.append(canonical);
    }
    canonical.href = head.canonical;
  } else {
    canonical?.remove();
  }
}

/**
 * Links the stylesheets a page needs beyond the site's (KaTeX's, on a page with math) unless the document
 * has them: a prerendered page with math links them already. Once added they stay, for the next page.
 */
function addStylesheets(hrefs: readonly string[]): void {
  const linked = new Set(
    [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => l.getAttribute('href')),
  );
  for (const href of hrefs) {
    if (linked.has(href)) continue;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    document.head.append(link);
  }
}

function setMeta(attribute: 'name' | 'property', key: string, content: string): void {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!meta) {
    meta = document.createElement('meta');
    meta.setAttribute(attribute, key);
    document.head.append(meta);
  }
  meta.content = content;
}
