import type { PageRecord } from '../analyze/page-record';
import { progressLog } from '../progress';
import type { ScannedSite } from '../scan/scan-site';
import type { Site } from '../site/assemble';
import { buildSearchFiles, type SearchFiles } from '../site/search-files';
import type { SiteConfig } from '../scan/site-config';
import type { Manifest } from '../../shared/types';
import type { AppBundles } from './app-bundles';
import { splitForBrowser, type BrowserData } from './browser-data';
import type { PrerenderThreads } from './prerender-threads';
import { siteCss, type ClientAssets } from './bundle';
import { createManifest } from './manifest';
import { openSiteFolders, publishSite, type PublishTargets } from './publish';
import { previousSearch, type SearchLending } from './published-search';

export interface OutputInput {
  scanned: ScannedSite;
  site: Site<PageRecord>;
  app: AppBundles;
  /** What the pages' texts were made with (the render cache's identity), for the output ledger. */
  textsVersion: string;
  /** Prerender threads (0: none); by default as many as the documents to render are enough to pay for. */
  prerenderThreads?: number;
  /** The build's prerender threads, which every site of it renders on (its versions one after the other). */
  prerendering: PrerenderThreads;
  /** The search data the other sites of the build lend this one, and are told of. */
  search?: SearchLending;
  log?: (line: string) => void;
}

/**
 * The output stage: the search data, the manifest and what the browser loads of it, the stylesheet with
 * the content's code colours, and every page prerendered with the app's renderer, published to
 * `manifest/` and `dist/` together (publish.ts).
 */
export async function outputSite(targets: PublishTargets, input: OutputInput): Promise<void> {
  const { scanned, site, app, log } = input;
  const { client, prerender, appCss } = app;
  const folders = await openSiteFolders(targets);
  // The search data published last lends the first results no edit since can have changed.
  const previous = (await previousSearch(folders.manifest, input.textsVersion)) ?? input.search?.lent();
  const search = await buildSearchFiles(site.pages, undefined, previous);
  input.search?.made(search);
  const { manifest, browserData } = siteOutput(scanned.config, site, search, client, await scanned.history);
  const renderer = input.prerendering.forSite(prerender, browserData.data, input.prerenderThreads);
  const css = await siteCss(appCss, site.pages);
  await publishSite(targets, folders, {
    manifest,
    browserData,
    search,
    pages: site.pages,
    client,
    css,
    renderRoute: prerender.renderRoute,
    renderer,
    versions: { texts: input.textsVersion, documents: prerender.version },
    onProgress: progressLog('prerendered', site.pages.length, log),
  });
}

/** The site's manifest, and the data files the browser reads of it (browser-data.ts). */
export function siteOutput(
  config: SiteConfig,
  site: Site<PageRecord>,
  search: SearchFiles,
  client: ClientAssets,
  history?: ReadonlyMap<string, string>,
  /** The data of the site last written, whose unchanged route shards are kept (`splitForBrowser`). */
  previous?: BrowserData,
): { manifest: Manifest; browserData: BrowserData } {
  const browserData = splitForBrowser(createManifest(config, site, search.entry, client, history), previous);
  return { manifest: browserData.manifest, browserData };
}
