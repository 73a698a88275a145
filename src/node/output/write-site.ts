import { mkdirSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FRAGMENT_CLOSE, FRAGMENT_OPEN } from '../../shared/constants';
import { headFor } from '../../shared/head';
import { withBase } from '../../shared/paths';
import type { DeploymentPointer, Manifest } from '../../shared/types';
import { fragmentFileName, type PageSource } from '../content/page-source';
import type { BrowserData } from '../site/browser-data';
import type { ClientAssets } from './bundle';
import { FAVICON_SVG, renderDocument, renderRedirectStub } from './document';
import { securityHeaders } from '../serve/headers';
import { LLMS_FULL_FILE, LLMS_INDEX_FILE, markdownTwinFile, renderLlmsFiles } from './llms';
import { renderNginxCsp, renderNginxRedirects } from './nginx-redirects';

export type RenderRoute = (
  manifest: Manifest,
  route: string,
  page: Manifest['pages'][number] | undefined,
  html: string | undefined,
) => Promise<string>;

/** Writes in flight at most: enough to keep the thread pool busy, few enough to bound the memory held. */
const MAX_PENDING_WRITES = 64;

/**
 * Writes output files, creating each folder once. The writes run on Node's thread pool while this
 * thread renders the next documents: on this two-core machine a build's few hundred writes cost
 * 0.1-0.5 s of kernel time, which then overlaps the rest. `put` resolves once another write may start.
 */
class OutputFolder {
  private readonly made = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;

  private constructor(private readonly root: string) {}

  /**
   * Runs `write` on the folder and waits for every write it started, also when it fails, so that nothing
   * is still being written once it returns; rejects with the first failure.
   */
  static async fill(root: string, write: (out: OutputFolder) => Promise<void>): Promise<void> {
    const out = new OutputFolder(root);
    try {
      await write(out);
    } finally {
      await Promise.all(out.pending);
    }
    if (out.failure) throw out.failure;
  }

  put(relative: string, data: string | Uint8Array): Promise<void> {
    return this.track(writeFile(this.inFolder(relative), data));
  }

  copy(from: string, relative: string): Promise<void> {
    return this.track(copyFile(from, this.inFolder(relative)));
  }

  private async track(write: Promise<void>): Promise<void> {
    const tracked: Promise<void> = write.then(
      () => void this.pending.delete(tracked),
      (error: unknown) => {
        this.pending.delete(tracked);
        this.failure ??= error;
      },
    );
    this.pending.add(tracked);
    if (this.pending.size >= MAX_PENDING_WRITES) await Promise.race(this.pending);
    if (this.failure) throw this.failure;
  }

  /** The file's path, its folder made. */
  private inFolder(relative: string): string {
    const file = path.join(this.root, relative);
    const folder = path.dirname(file);
    if (!this.made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.made.add(folder);
    }
    return file;
  }
}

/** `manifest/`: what the build knows, readable by a writer — pretty JSON and plain fragments. */
export async function writeManifestFolder(
  dir: string,
  manifest: Manifest,
  pages: PageSource[],
  searchJson: string,
): Promise<void> {
  await OutputFolder.fill(dir, async (out) => {
    await out.put('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    await out.put('search.json', searchJson);
    for (const page of pages) await out.put(path.join('pages', `${page.key}.html`), page.html);
  });
}

export interface DistInput {
  manifest: Manifest;
  /**
   * The browser's manifest with its route shards and sidebar group files (site/browser-data.ts); without
   * it (`npm run dev`) the browser loads the whole manifest.
   */
  browserData?: BrowserData;
  searchJson: string;
  pages: PageSource[];
  client: ClientAssets;
  css: { name: string; css: Uint8Array };
  renderRoute: RenderRoute;
  /** Called with the number of pages prerendered so far. */
  onProgress?: (done: number) => void;
}

/** The route the not-found page is rendered for. */
const NOT_FOUND_ROUTE = '/404.html';

/** `dist/`: the deployable content of the base path. */
export async function writeDist(dir: string, input: DistInput): Promise<void> {
  await OutputFolder.fill(dir, async (out) => {
    const { manifest, pages, client, css } = input;
    const { site } = manifest;
    const underBase = (url: string) => new URL(url, 'http://x').pathname.replace(site.base, '');
    for (const [name, contents] of client.files) await out.put(path.join('assets/js', name), contents);
    await out.put(path.join('assets/css', css.name), css.css);
    await out.put(underBase(manifest.search), input.searchJson);
    await out.put(underBase(pointerOf(manifest).manifest), input.browserData?.manifestJson ?? JSON.stringify(manifest));
    for (const [url, json] of input.browserData?.files ?? []) await out.put(underBase(url), json);
    await out.put('favicon.svg', FAVICON_SVG);
    await out.put('version.json', `${JSON.stringify(pointerOf(manifest))}\n`);
    const copied = new Set<string>();
    for (const page of pages) {
      await out.put(path.join('assets/js', fragmentFileName(page)), FRAGMENT_OPEN + page.html + FRAGMENT_CLOSE);
      for (const asset of page.analysis.assets) {
        if (copied.has(asset.url)) continue;
        copied.add(asset.url);
        await out.copy(asset.absolutePath, asset.url.replace(site.base, ''));
      }
    }

    const assets = {
      base: site.base,
      css: css.name,
      entry: client.entry,
      theme: client.theme,
      preload: client.preload,
      manifest: pointerOf(manifest).manifest,
    };
    const metas = new Map(manifest.pages.map((p) => [p.path, p]));
    let done = 0;
    for (const page of pages) {
      const meta = metas.get(page.route);
      const appHtml = await input.renderRoute(manifest, page.route, meta, page.html);
      const data = input.browserData?.preloads(page.route) ?? [];
      await out.put(
        path.join(page.route, 'index.html'),
        renderDocument(headFor(site, meta), appHtml, { ...assets, data }, site.analyticsId),
      );
      input.onProgress?.(++done);
    }
    const notFound = await input.renderRoute(manifest, NOT_FOUND_ROUTE, undefined, undefined);
    await out.put('404.html', renderDocument(headFor(site, undefined), notFound, assets, site.analyticsId));

    const siteUrl = site.siteUrl.replace(/\/$/, '');
    const redirectLines: string[] = [];
    for (const [from, to] of Object.entries(manifest.redirects)) {
      const target = withBase(site.base, to);
      await out.put(path.join(from, 'index.html'), renderRedirectStub(target, siteUrl + target));
      const source = withBase(site.base, from);
      redirectLines.push(`${source.replace(/\/$/, '')} ${target} 301`, `${source} ${target} 301`);
    }
    await out.put('_redirects', `${redirectLines.join('\n')}\n`);
    await out.put('_redirects.nginx', renderNginxRedirects(redirectLines));
    await out.put('_headers.nginx', renderNginxCsp(securityHeaders(Boolean(site.analyticsId), site.embeds)));
    for (const page of pages) await out.put(markdownTwinFile(page.route), page.markdown);
    const llms = renderLlmsFiles(manifest, pages);
    await out.put(LLMS_INDEX_FILE, llms.index);
    await out.put(LLMS_FULL_FILE, llms.full);
    const urls = pages.map((p) => `  <url><loc>${siteUrl}${withBase(site.base, p.route)}</loc></url>`);
    await out.put(
      'sitemap.xml',
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
    );
  });
}

export function pointerOf(manifest: Manifest): DeploymentPointer {
  return { manifest: `${manifest.site.base}assets/js/manifest.${manifest.hash}.json`, hash: manifest.hash };
}
