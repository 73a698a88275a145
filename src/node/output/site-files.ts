import path from 'node:path';
import { FRAGMENT_CLOSE, FRAGMENT_OPEN } from '../../shared/constants';
import { canonicalUrl, headFor } from '../../shared/head';
import { withBase } from '../../shared/paths';
import { FAVICON_FILE, NOT_FOUND_FILE, SITEMAP_FILE } from '../../shared/root-files';
import { manifestUrl, POINTER_FILE } from '../../shared/site-data';
import { isUnlistedVersion } from '../../shared/versions';
import type { DeploymentPointer, Manifest, SiteSettings } from '../../shared/types';
import { digestOfAll } from '../content-hash';
import { fragmentFileName, type PageRecord } from '../analyze/page-record';
import { heldText, type StoredText } from '../analyze/text-store';
import { mathAssets } from './math-assets';
import { escapeHtml } from '../analyze/markdown/escape';
import { securityHeaders } from './headers';
import type { BrowserData } from './browser-data';
import type { SearchFiles } from '../site/search-files';
import type { ClientAssets } from './bundle';
import { FAVICON_ASSET, FAVICON_SVG, renderRedirectStub, type DocumentSettings } from './document';
import type { FileMaker } from './output-folder';
import { renderingHere, type DocumentParts, type DocumentRenderer, type RenderRoute } from './render-document';
import { LLMS_FULL_FILE, LLMS_INDEX_FILE, markdownTwinFile, renderLlmsFiles } from './llms';
import { renderNginxCsp, renderNginxRedirects } from './nginx-redirects';
import { pageUrl } from './page-url';

export interface SiteInput {
  manifest: Manifest;
  /** The browser's manifest with its route shards and sidebar group files (output/browser-data.ts). */
  browserData: BrowserData;
  search: SearchFiles;
  pages: PageRecord[];
  client: ClientAssets;
  css: { name: string; css: Uint8Array };
  renderRoute: RenderRoute;
  /** Renders the documents (on prerender threads, when there are enough); by default `renderRoute` on this thread. */
  renderer?: DocumentRenderer;
  /**
   * What made the pages' texts (the render cache's identity), and what renders the documents (the
   * prerender bundle's hash). With both, a page's files carry the key they are made from (`SiteFile.key`).
   */
  versions?: { texts: string; documents: string };
  /** Called with the number of pages whose documents are written (rendered or unchanged) so far. */
  onProgress?: (done: number) => void;
  /** The redirect table's lines of the sites nested in this one (its versions'): a host reads the top one only. */
  nestedRedirects?: readonly string[];
}

/** One file of the site, by its path in the output folder (`/`-separated, no leading slash). */
export type SiteFile = {
  path: string;
  /**
   * The page the file is made from, with the site around it: its fragment, its twin, its images, its
   * document. Such a file changes when the page does (its `key` and `hash`), and for a document when what
   * it shows of the rest of the site does.
   */
  page?: PageRecord;
  /**
   * Everything the file is made from, as a digest (`fileKeys`): the same key makes the same bytes, so the
   * build leaves the file as the previous one wrote it (folder-update.ts). Only given `versions`.
   */
  key?: string;
  /**
   * Only a file written after it leads a reader to it: a hashed file (named by the pointer, or by a file
   * the pointer names), a page's image (named by its fragment). New, it can be written in its place
   * straight away; any other file waits beside its place until the whole site is written (folder-update.ts).
   */
  reachedLater?: true;
} & (
  | {
      /** Its contents, or what makes them when it is written (a text of every page: no app reads it). */
      data: FileMaker;
    }
  /** A file of the content folder, copied as it is. */
  | { copyOf: string }
  /** An HTML document of the app, rendered when it is written (prerendering is most of a build's writing). */
  | { document: () => Promise<DocumentParts> }
);

/** The route the not-found page is rendered for. */
export const NOT_FOUND_ROUTE = '/404.html';

/**
 * The pointer to `manifest`; `shards` names the browser manifest's route shards, when it has them, and
 * `entry` is the app's entry file under assets/js.
 */
export function pointerOf(manifest: Manifest, shards?: string[], entry?: string): DeploymentPointer {
  return {
    manifest: manifestUrl(manifest),
    hash: manifest.hash,
    ...(shards === undefined ? {} : { shards }),
    ...(entry === undefined ? {} : { app: `${manifest.site.base}assets/js/${entry}` }),
  };
}

/** What a document shows of the site's settings, alone: it is sent to a prerender thread with each route. */
function documentSettings({ analyticsId, announcement }: SiteSettings): DocumentSettings {
  return { ...(analyticsId === undefined ? {} : { analyticsId }), ...(announcement ? { announcement } : {}) };
}

const inOutput = (...parts: string[]) => path.posix.join(...parts).replace(/^\/+/, '');

/** The keys the site's files are made from (`SiteFile.key`); none without `versions`. */
export function fileKeys(versions: SiteInput['versions']) {
  const key = (...parts: string[]) => (versions ? digestOfAll(parts) : undefined);
  return {
    key,
    /** A file named by a hash of its contents: the same file while its name is. */
    named: key('named by its contents'),
    /** A page's texts (fragment, twin): the same while its file, its images and the build's code are. */
    texts: (page: PageRecord) => key(versions?.texts ?? '', page.source.digest, page.hash),
  };
}

/**
 * The key of a text in parts that holds pages' markdown (`llms-full.txt`): each part by its text, a page's
 * markdown by the key it is made from (`texts`), so that the pages' markdown, most of a large site's
 * text and possibly on disk, is not read to find the file unchanged.
 */
function partsKey(keys: ReturnType<typeof fileKeys>, parts: readonly StoredText[], pages: readonly PageRecord[]) {
  const pageOf = new Map(pages.map((page) => [page.markdown, page]));
  return keys.key(
    ...parts.map((part) => {
      const page = pageOf.get(part);
      return page ? `page ${keys.texts(page)}` : JSON.stringify(part.read());
    }),
  );
}

const [FRAGMENT_START, FRAGMENT_END] = [heldText(FRAGMENT_OPEN), heldText(FRAGMENT_CLOSE)];

/** A page's fragment, the file the app reads to show the page: named by its key and hash, read once a manifest names it. */
export function fragmentFile(page: PageRecord, key?: string): SiteFile & { data: FileMaker } {
  const path = inOutput('assets/js', fragmentFileName(page));
  return { path, page, data: [FRAGMENT_START, page.html, FRAGMENT_END], key, reachedLater: true };
}

/** Where a file of the search data (`SearchFile.name`) is in `dist/`. */
export const searchFilePath = (name: string): string => inOutput('assets/js', name);

/**
 * Every file of `dist/`, the deployable content of the base path. `npm run build` brings `dist/` up to
 * date with them (folder-update.ts); `npm run dev` writes those that changed into its folder. A generator, so that a
 * large site's documents are rendered one at a time, as they are written.
 */
export function* siteFiles(input: SiteInput): Generator<SiteFile> {
  const { manifest, pages, client, css } = input;
  const { site } = manifest;
  const underBase = (url: string) => inOutput(new URL(url, 'http://x').pathname.replace(site.base, ''));
  const pointer = pointerOf(manifest, input.browserData.shards, client.entry);
  const keys = fileKeys(input.versions);
  const named = { key: keys.named, reachedLater: true } as const;
  for (const [name, contents] of client.files) yield { path: inOutput('assets/js', name), data: contents, ...named };
  yield { path: inOutput('assets/css', css.name), data: css.css, ...named };
  if (manifest.pages.some((page) => page.stylesheets)) {
    for (const file of mathAssets().files) yield { path: inOutput('assets', file.path), data: file.data, ...named };
  }
  yield { path: underBase(manifest.search), data: input.search.entry, ...named };
  for (const shard of input.search.shards) yield { path: searchFilePath(shard.name), data: shard.data, ...named };
  yield { path: underBase(pointer.manifest), data: input.browserData.manifestJson, ...named };
  for (const [url, json] of input.browserData.files) yield { path: underBase(url), data: json, ...named };
  yield { path: FAVICON_FILE, data: FAVICON_SVG };
  yield { path: FAVICON_ASSET, data: FAVICON_SVG, ...named };
  const copied = new Set<string>();
  for (const page of pages) {
    yield fragmentFile(page, keys.texts(page));
    for (const asset of page.analysis.assets) {
      if (copied.has(asset.url)) continue;
      copied.add(asset.url);
      const { absolutePath, size, mtimeMs } = asset;
      const key = keys.key(absolutePath, String(size), String(mtimeMs));
      yield { path: inOutput(asset.url.replace(site.base, '')), page, copyOf: absolutePath, key, reachedLater: true };
    }
  }

  const assets = {
    base: site.base,
    css: css.name,
    entry: client.entry,
    theme: client.theme,
    preload: client.preload,
    pointer: `${site.base}${POINTER_FILE}`,
  };
  // The pointer, once the data it names is written, and before the documents: a build stopped between the
  // two leaves old documents beside new data, which the app shows the new pages with; never a new document
  // beside old data, whose page the app would then find missing. Documents name no deployment.
  yield { path: POINTER_FILE, data: `${JSON.stringify(pointer)}\n` };
  const metas = new Map(manifest.pages.map((p) => [p.path, p]));
  const { browserData } = input;
  const assetsKey = JSON.stringify([assets, site.analyticsId, site.announcement?.id]);
  const render = input.renderer?.render ?? renderingHere(input.renderRoute, browserData.data);
  const settings = documentSettings(site);
  for (const page of pages) {
    const groups = browserData.groupsOf(page.route);
    const document = () =>
      render(page.route, page.html, {
        head: headFor(site, metas.get(page.route)),
        assets: { ...assets, route: page.route, groups, stylesheets: metas.get(page.route)?.stylesheets ?? [] },
        settings,
      });
    // The document shows the page and what the browser's data says of the site around it (its view, which
    // covers the page's sidebar groups too).
    // Only a build keeps unchanged files by their keys: `npm run dev` writes the edited pages' documents.
    const key = input.versions && keys.key(input.versions.documents, assetsKey, browserData.viewOf(page.route));
    yield { path: inOutput(page.route, 'index.html'), page, document, key };
  }
  const notFound = () => render(NOT_FOUND_ROUTE, undefined, { head: headFor(site, undefined), assets, settings });
  // The not-found page shows the site's frame and no page: its view is that of a route with no record.
  const notFoundKey =
    input.versions && keys.key(input.versions.documents, assetsKey, browserData.viewOf(NOT_FOUND_ROUTE));
  yield { path: NOT_FOUND_FILE, document: notFound, key: notFoundKey };

  const siteUrl = site.siteUrl.replace(/\/$/, '');
  const redirectLines: string[] = [];
  for (const [from, to] of Object.entries(manifest.redirects)) {
    const target = withBase(site.base, to);
    yield { path: inOutput(from, 'index.html'), data: renderRedirectStub(target, canonicalUrl(site, to)) };
    const source = withBase(site.base, from);
    redirectLines.push(`${source.replace(/\/$/, '')} ${target} 301`, `${source} ${target} 301`);
  }
  redirectLines.push(...(input.nestedRedirects ?? []));
  yield { path: '_redirects', data: `${redirectLines.join('\n')}\n` };
  yield { path: '_redirects.nginx', data: renderNginxRedirects(redirectLines) };
  yield {
    path: '_headers.nginx',
    data: renderNginxCsp(securityHeaders(Boolean(site.analyticsId), site.embeds, site.feedback?.endpoint)),
  };
  for (const page of pages)
    yield { path: markdownTwinFile(page.route), page, data: [page.markdown], key: keys.texts(page) };
  // An older version is left out of what search engines and language models are pointed at, unless listed.
  if (isUnlistedVersion(site)) return;
  // Texts of every page that tools and search engines read, not the app: made only when written.
  let llms: ReturnType<typeof renderLlmsFiles> | undefined;
  const llmsFiles = () => (llms ??= renderLlmsFiles(manifest, pages));
  yield { path: LLMS_INDEX_FILE, data: async () => llmsFiles().index };
  const fullKey = input.versions && partsKey(keys, llmsFiles().full, pages);
  yield { path: LLMS_FULL_FILE, data: async () => llmsFiles().full, key: fullKey };
  yield { path: SITEMAP_FILE, data: async () => sitemap(siteUrl, site.base, pages) };
}

function sitemap(siteUrl: string, base: string, pages: readonly PageRecord[]): string {
  // Escaped as XML: a URL may hold `&` (`q&a.md`), which alone would make the file invalid.
  const urls = pages.map((p) => `  <url><loc>${escapeHtml(pageUrl(siteUrl, base, p.route))}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}
