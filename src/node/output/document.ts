import type { HeadData } from '../../shared/head';
import type { SiteSettings } from '../../shared/types';
import { START_ASSETS_ID, type StartAssets } from '../../shared/start-assets';
import { escapeHtml } from '../analyze/markdown/escape';
import { contentHash } from '../content-hash';

export interface DocumentAssets {
  base: string;
  css: string;
  entry: string;
  theme: string;
  preload: string[];
  /** URL of the deployment pointer, which names the manifest: the document names no deployment. */
  pointer: string;
  /** The page's route, whose record the app loads as it starts (none on the not-found page). */
  route?: string;
  /** The files (their names) of the page's folded sidebar groups, which the app loads as it starts. */
  groups?: string[];
  /** Stylesheets the page needs beyond the site's (`PageMeta.stylesheets`), with the base. */
  stylesheets?: string[];
}

/** The tag manager's origin, the one third party the CSP allows when analytics is configured. */
export const ANALYTICS_ORIGIN = 'https://www.googletagmanager.com';

/** What a document carries of the site's settings beyond its page. */
export type DocumentSettings = Pick<SiteSettings, 'analyticsId' | 'announcement'>;

const NOINDEX = '<meta name="robots" content="noindex">';

/** The site icon: a small mark in the brand colour, shipped as a file (no inline data under the CSP). */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b6bcb"/><path d="M9 22V10h7a5 5 0 0 1 0 10h-3v2z" fill="none" stroke="#fff" stroke-width="3" stroke-linejoin="round"/></svg>\n';

/**
 * Where the documents link the site icon, under the base: a file named by its bytes, which browsers keep
 * (immutable, as every hashed asset), since a tab asks for its icon again at every page the app shows.
 * `favicon.svg` at the base stays for tools that look for it there.
 */
export const FAVICON_ASSET = `assets/favicon.${contentHash(FAVICON_SVG)}.svg`;

/** A complete prerendered HTML document for one route; `appHtml` is the server-rendered React tree. */
export function renderDocument(
  head: HeadData,
  appHtml: string,
  assets: DocumentAssets,
  { analyticsId, announcement }: DocumentSettings = {},
): string {
  const js = `${assets.base}assets/js/`;
  // The boot script hides a bar the reader dismissed before the first paint: it needs the bar's id first.
  const announced = announcement ? ` data-announcement="${escapeHtml(announcement.id)}"` : '';
  const meta = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    // An older version's page keeps its own canonical link and asks search engines to leave it out.
    head.canonical
      ? `<link rel="canonical" href="${escapeHtml(head.canonical)}">${head.noindex ? `\n${NOINDEX}` : ''}`
      : NOINDEX,
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    `<meta property="og:description" content="${escapeHtml(head.description)}">`,
    head.canonical ? `<meta property="og:url" content="${escapeHtml(head.canonical)}">` : '',
    `<link rel="icon" href="${assets.base}${FAVICON_ASSET}" type="image/svg+xml">`,
    `<script src="${js}${assets.theme}"${announced}></script>`,
    `<link rel="stylesheet" href="${assets.base}assets/css/${assets.css}">`,
    ...(assets.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    // The first paint waits until the whole page is parsed, up to the start assets at the end of <body>.
    // Painted sooner, a long page is shown in part and the rest is laid out after the paint, in one long
    // task before the reader's first tap can be answered. A browser without `rel=expect` paints as before.
    `<link rel="expect" href="#${START_ASSETS_ID}" blocking="render">`,
    analyticsId ? `<script async src="${ANALYTICS_ORIGIN}/gtm.js?id=${encodeURIComponent(analyticsId)}"></script>` : '',
  ].filter(Boolean);
  // The app and its first data are loaded by the boot script once the page has painted (StartAssets).
  const start = startAssetsElement({
    entry: js + assets.entry,
    modules: assets.preload.map((chunk) => js + chunk),
    pointer: assets.pointer,
    base: assets.base,
    ...(assets.route === undefined ? {} : { route: assets.route }),
    groups: assets.groups ?? [],
  });
  return `<!doctype html>\n<html lang="${escapeHtml(head.lang)}">\n<head>\n${meta.join('\n')}\n</head>\n<body>\n<div id="app">${appHtml}</div>\n${start}\n</body>\n</html>\n`;
}

/** The start assets as the document carries them: JSON with `<` escaped, so no URL can end the element. */
function startAssetsElement(assets: StartAssets): string {
  const json = JSON.stringify(assets).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${START_ASSETS_ID}">${json}</script>`;
}

const START_ASSETS_ELEMENT = new RegExp(`<script type="application/json" id="${START_ASSETS_ID}">([^<]*)</script>`);

/** The start assets a document written by `renderDocument` lists (for tools and tests); none in other HTML. */
export function readStartAssets(html: string): StartAssets | undefined {
  const json = START_ASSETS_ELEMENT.exec(html)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as StartAssets);
}

/** A static redirect page for hosts without server-side redirects. */
export function renderRedirectStub(target: string, canonical: string | undefined): string {
  const t = escapeHtml(target);
  const link = canonical ? `<link rel="canonical" href="${escapeHtml(canonical)}">\n` : '';
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Redirecting…</title>\n<meta name="robots" content="noindex">\n${link}<meta http-equiv="refresh" content="0; url=${t}">\n</head>\n<body>\n<p>This page has moved to <a href="${t}">${t}</a>.</p>\n</body>\n</html>\n`;
}
