import path from 'node:path';
import type { Manifest } from '../../shared/types';
import type { PageSource } from '../content/page-source';
import { OutputFolder } from './output-folder';
import { NOT_FOUND_ROUTE, siteFiles, type RenderRoute, type SiteInput } from './site-files';

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

/**
 * The app HTML `prerenderUntil` holds at most (UTF-16 units). Each page's app HTML holds its fragment, so
 * holding all of a 10,000-page site's until the output is written would hold the site's text twice; past
 * this, the pages are left to `writeDist`, which writes each as it renders it.
 */
const EARLY_PRERENDER_LIMIT = 96 * 1024 * 1024;

/**
 * Renders the app HTML of the pages, in order, then of the not-found page, until `until` settles (or
 * `EARLY_PRERENDER_LIMIT` is reached). For
 * rendering on a core that would otherwise wait for it: between routes it gives way to the event loop,
 * so the messages that settle `until` are handled as they come. A failure only ends it early, leaving
 * that route to `writeDist`, which reports it.
 */
export async function prerenderUntil(
  until: Promise<unknown>,
  manifest: Manifest,
  pages: readonly PageSource[],
  renderRoute: RenderRoute,
): Promise<Map<string, string>> {
  let settled = false;
  until.then(
    () => (settled = true),
    () => (settled = true),
  );
  const rendered = new Map<string, string>();
  const metas = new Map(manifest.pages.map((p) => [p.path, p]));
  const routes = [...pages.map((page) => [page.route, page.html] as const), [NOT_FOUND_ROUTE, undefined] as const];
  let held = 0;
  try {
    for (const [route, html] of routes) {
      await new Promise((resolve) => setImmediate(resolve));
      if (settled || held > EARLY_PRERENDER_LIMIT) break;
      const appHtml = await renderRoute(manifest, route, metas.get(route), html);
      rendered.set(route, appHtml);
      held += appHtml.length;
    }
  } catch {
    // Rendered again by writeDist, which reports the failure.
  }
  return rendered;
}

export type DistInput = SiteInput;

/** `dist/`: the deployable content of the base path, every file of `siteFiles`, into a fresh folder. */
export async function writeDist(dir: string, input: DistInput): Promise<void> {
  await OutputFolder.fill(dir, async (out) => {
    for (const file of siteFiles(input)) {
      if ('copyOf' in file) await out.copy(file.copyOf, file.path);
      else await out.put(file.path, 'data' in file ? file.data : await file.document());
    }
  });
}
