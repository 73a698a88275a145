import path from 'node:path';
import { FRAGMENT_CLOSE, FRAGMENT_OPEN } from '../../shared/constants';
import { headFor } from '../../shared/head';
import { withBase } from '../../shared/paths';
import type { DeploymentPointer, Manifest } from '../../shared/types';
import { fragmentFileName, type PageSource } from '../content/page-record';
import { securityHeaders } from '../serve/headers';
import type { BrowserData } from '../site/browser-data';
import type { SearchFiles } from '../site/search-files';
import type { ClientAssets } from './bundle';
import { FAVICON_SVG, renderDocument, renderRedirectStub } from './document';
import type { FileData } from './output-folder';
import { LLMS_FULL_FILE, LLMS_INDEX_FILE, markdownTwinFile, renderLlmsFiles } from './llms';
import { renderNginxCsp, renderNginxRedirects } from './nginx-redirects';

/** Renders one route's app HTML with the prerender bundle (the same components the browser hydrates). */
export type RenderRoute = (
  manifest: Manifest,
  route: string,
  page: Manifest['pages'][number] | undefined,
  html: string | undefined,
) => Promise<string>;

export interface SiteInput {
  manifest: Manifest;
  /**
   * The browser's manifest with its route shards and sidebar group files (site/browser-data.ts); without
   * it (`npm run dev`) the browser loads the whole manifest.
   */
  browserData?: BrowserData;
  search: SearchFiles;
  pages: PageSource[];
  client: ClientAssets;
  css: { name: string; css: Uint8Array };
  renderRoute: RenderRoute;
  /** Called with the number of pages prerendered so far. */
  onProgress?: (done: number) => void;
}

/** One file of the site, by its path in the output folder (`/`-separated, no leading slash). */
export type SiteFile = {
  path: string;
  /**
   * The page the file is made from, with the site around it: its fragment, its twin, its images, its
   * document. Such a file changes when the page does (its `key` and `hash`), and for a document when the
   * site's manifest does.
   */
  page?: PageSource;
} & (
  | {
      data: FileData;
    }
  /** A file of the content folder, copied as it is. */
  | { copyOf: string }
  /** An HTML document of the app, rendered when it is written (prerendering is most of a build's writing). */
  | { document: () => Promise<string> }
);

/** The file that names the current manifest; it points at the others, so a writer in place writes it last. */
export const POINTER_FILE = 'version.json';

/** The route the not-found page is rendered for. */
export const NOT_FOUND_ROUTE = '/404.html';

export function pointerOf(manifest: Manifest): DeploymentPointer {
  return { manifest: `${manifest.site.base}assets/js/manifest.${manifest.hash}.json`, hash: manifest.hash };
}

const inOutput = (...parts: string[]) => path.posix.join(...parts).replace(/^\/+/, '');

/**
 * Every file of `dist/`, the deployable content of the base path. `npm run build` writes all of them
 * into a staging folder; `npm run dev` writes those that changed into its folder. A generator, so that a
 * large site's documents are rendered one at a time, as they are written.
 */
export function* siteFiles(input: SiteInput): Generator<SiteFile> {
  const { manifest, pages, client, css } = input;
  const { site } = manifest;
  const underBase = (url: string) => inOutput(new URL(url, 'http://x').pathname.replace(site.base, ''));
  const pointer = pointerOf(manifest);
  for (const [name, contents] of client.files) yield { path: inOutput('assets/js', name), data: contents };
  yield { path: inOutput('assets/css', css.name), data: css.css };
  yield { path: underBase(manifest.search), data: input.search.entry };
  for (const shard of input.search.shards) yield { path: inOutput('assets/js', shard.name), data: shard.data };
  yield { path: underBase(pointer.manifest), data: input.browserData?.manifestJson ?? JSON.stringify(manifest) };
  for (const [url, json] of input.browserData?.files ?? []) yield { path: underBase(url), data: json };
  yield { path: 'favicon.svg', data: FAVICON_SVG };
  const copied = new Set<string>();
  for (const page of pages) {
    yield {
      path: inOutput('assets/js', fragmentFileName(page)),
      page,
      data: FRAGMENT_OPEN + page.html.read() + FRAGMENT_CLOSE,
    };
    for (const asset of page.analysis.assets) {
      if (copied.has(asset.url)) continue;
      copied.add(asset.url);
      yield { path: inOutput(asset.url.replace(site.base, '')), page, copyOf: asset.absolutePath };
    }
  }

  const assets = {
    base: site.base,
    css: css.name,
    entry: client.entry,
    theme: client.theme,
    preload: client.preload,
    manifest: pointer.manifest,
  };
  const metas = new Map(manifest.pages.map((p) => [p.path, p]));
  let done = 0;
  for (const page of pages) {
    const document = async () => {
      const meta = metas.get(page.route);
      const appHtml = await input.renderRoute(manifest, page.route, meta, page.html.read());
      const data = input.browserData?.preloads(page.route) ?? [];
      const html = renderDocument(headFor(site, meta), appHtml, { ...assets, data }, site.analyticsId);
      input.onProgress?.(++done);
      return html;
    };
    yield { path: inOutput(page.route, 'index.html'), page, document };
  }
  const notFound = async () => {
    const appHtml = await input.renderRoute(manifest, NOT_FOUND_ROUTE, undefined, undefined);
    return renderDocument(headFor(site, undefined), appHtml, assets, site.analyticsId);
  };
  yield { path: '404.html', document: notFound };

  const siteUrl = site.siteUrl.replace(/\/$/, '');
  const redirectLines: string[] = [];
  for (const [from, to] of Object.entries(manifest.redirects)) {
    const target = withBase(site.base, to);
    yield { path: inOutput(from, 'index.html'), data: renderRedirectStub(target, siteUrl + target) };
    const source = withBase(site.base, from);
    redirectLines.push(`${source.replace(/\/$/, '')} ${target} 301`, `${source} ${target} 301`);
  }
  yield { path: '_redirects', data: `${redirectLines.join('\n')}\n` };
  yield { path: '_redirects.nginx', data: renderNginxRedirects(redirectLines) };
  yield { path: '_headers.nginx', data: renderNginxCsp(securityHeaders(Boolean(site.analyticsId), site.embeds)) };
  for (const page of pages) yield { path: markdownTwinFile(page.route), page, data: page.markdown.read() };
  const llms = renderLlmsFiles(manifest, pages);
  yield { path: LLMS_INDEX_FILE, data: llms.index };
  yield { path: LLMS_FULL_FILE, data: llms.full };
  const urls = pages.map((p) => `  <url><loc>${siteUrl}${withBase(site.base, p.route)}</loc></url>`);
  yield {
    path: 'sitemap.xml',
    data: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  };
  yield { path: POINTER_FILE, data: `${JSON.stringify(pointer)}\n` };
}
