import { createHash } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FRAGMENT_CLOSE, FRAGMENT_OPEN } from '../../shared/constants';
import { headFor } from '../../shared/head';
import { withBase } from '../../shared/paths';
import type { DeploymentPointer, Manifest, SearchData } from '../../shared/types';
import { fragmentFileName, type PageSource } from '../content/page-source';
import type { ClientAssets } from './bundle';
import { FAVICON_SVG, renderDocument, renderRedirectStub } from './document';
import { renderNginxRedirects } from './nginx-redirects';

type RenderRoute = (
  manifest: Manifest,
  route: string,
  page: Manifest['pages'][number] | undefined,
  html: string | undefined,
) => Promise<string>;

async function put(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
}

export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 8);
}

/** `manifest/`: what the build knows, readable by a writer — pretty JSON and plain fragments. */
export async function writeManifestFolder(
  dir: string,
  manifest: Manifest,
  pages: PageSource[],
  search: SearchData,
): Promise<void> {
  await put(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await put(path.join(dir, 'search.json'), JSON.stringify(search));
  await Promise.all(pages.map((page) => put(path.join(dir, 'pages', `${page.key}.html`), page.html)));
}

export interface DistInput {
  manifest: Manifest;
  manifestJson: string;
  searchJson: string;
  pages: PageSource[];
  client: ClientAssets;
  css: { name: string; css: Uint8Array };
  renderRoute: RenderRoute;
  onProgress?: (done: number, total: number) => void;
}

/** `dist/`: the deployable content of the base path. */
export async function writeDist(dir: string, input: DistInput): Promise<void> {
  const { manifest, pages, client, css } = input;
  const { site } = manifest;
  const js = path.join(dir, 'assets/js');
  const writes: Promise<void>[] = [];
  for (const [name, contents] of client.files) writes.push(put(path.join(js, name), contents));
  writes.push(put(path.join(dir, 'assets/css', css.name), css.css));
  writes.push(
    put(path.join(dir, new URL(manifest.search, 'http://x').pathname.replace(site.base, '')), input.searchJson),
  );
  const manifestPath = new URL(pointerOf(manifest).manifest, 'http://x').pathname.replace(site.base, '');
  writes.push(put(path.join(dir, manifestPath), input.manifestJson));
  writes.push(put(path.join(dir, 'favicon.svg'), FAVICON_SVG));
  writes.push(put(path.join(dir, 'version.json'), `${JSON.stringify(pointerOf(manifest))}\n`));
  const copied = new Set<string>();
  for (const page of pages) {
    writes.push(put(path.join(js, fragmentFileName(page)), FRAGMENT_OPEN + page.html + FRAGMENT_CLOSE));
    for (const asset of page.analysis.assets) {
      if (copied.has(asset.url)) continue;
      copied.add(asset.url);
      const target = path.join(dir, asset.url.replace(site.base, ''));
      writes.push(mkdir(path.dirname(target), { recursive: true }).then(() => copyFile(asset.absolutePath, target)));
    }
  }
  await Promise.all(writes);

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
  // Rendering is synchronous work here and writing is not: a page is written while the next ones render,
  // with a bounded number of documents waiting to be written.
  const pending = new Set<Promise<void>>();
  for (const page of pages) {
    const meta = metas.get(page.route);
    const appHtml = await input.renderRoute(manifest, page.route, meta, page.html);
    const doc = renderDocument(headFor(site, meta), appHtml, assets, site.analyticsId);
    const written = put(path.join(dir, page.route, 'index.html'), doc).then(() => void pending.delete(written));
    pending.add(written);
    if (pending.size >= 64) await Promise.race(pending);
    input.onProgress?.(++done, pages.length);
  }
  await Promise.all(pending);
  const notFound = await input.renderRoute(manifest, '/404.html', undefined, undefined);
  await put(path.join(dir, '404.html'), renderDocument(headFor(site, undefined), notFound, assets, site.analyticsId));

  const siteUrl = site.siteUrl.replace(/\/$/, '');
  const redirectLines: string[] = [];
  for (const [from, to] of Object.entries(manifest.redirects)) {
    const target = withBase(site.base, to);
    await put(path.join(dir, from, 'index.html'), renderRedirectStub(target, siteUrl + target));
    const source = withBase(site.base, from);
    redirectLines.push(`${source.replace(/\/$/, '')} ${target} 301`, `${source} ${target} 301`);
  }
  await put(path.join(dir, '_redirects'), `${redirectLines.join('\n')}\n`);
  await put(path.join(dir, '_redirects.nginx'), renderNginxRedirects(redirectLines));
  const urls = pages.map((p) => `  <url><loc>${siteUrl}${withBase(site.base, p.route)}</loc></url>`);
  await put(
    path.join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  );
}

export function pointerOf(manifest: Manifest): DeploymentPointer {
  return { manifest: `${manifest.site.base}assets/js/manifest.${manifest.hash}.json`, hash: manifest.hash };
}
