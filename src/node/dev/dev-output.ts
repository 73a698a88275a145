import { UPDATED_PAGES_NAMED, type DevUpdate, type UpdatedPage } from '../../shared/dev-update';
import { shardOf } from '../../shared/site-data';
import type { Manifest } from '../../shared/types';
import {
  appBundles,
  buildSearchFiles,
  ChangedFilesWriter,
  fragmentFile,
  outputFiles,
  pointerOf,
  siteCss,
  stylesOf,
  type BrowserData,
  type ClientAssets,
  type CompletePage,
  type PageRecord,
  type ReferencedSite,
  type RenderRoute,
  type SearchFiles,
  type Site,
} from '../site-stages';

/** A site's stylesheet: the app's CSS with the code colours and formula classes of its pages. */
export type Stylesheet = { name: string; css: Uint8Array };

/** What a write of the site into the dev output writes. */
export interface DevWrite {
  /** Every file (the first pass, a restart), not only those that changed since the last write. */
  whole: boolean;
  /** The search data made again; else the data already written is kept (and made when there is none). */
  search: boolean;
}

/**
 * What `npm run dev` has written of the site, and what it writes it with: the app's bundles, the
 * stylesheet, the search data and the output folder (changed-files.ts). The same data files as
 * `npm run build` writes, so that a page in dev reads what it reads in production.
 */
export class DevOutput {
  private readonly writer: ChangedFilesWriter;
  private client!: ClientAssets;
  private renderRoute!: RenderRoute;
  /** The app's own CSS, bundled; the stylesheet adds the code colours to it. */
  appCss = '';
  private css: Stylesheet | undefined;
  /** The code colours and formula classes the stylesheet has. */
  private colours = new Set<string>();
  /** The search data the last manifest points to, and the site last written. */
  private search: SearchFiles = { entry: '', shards: [] };
  private written: { scanned: ReferencedSite; site: Site<PageRecord>; data: BrowserData } | undefined;
  /** The last manifest written: what the browser shows. */
  manifest: Manifest | undefined;

  constructor(outDir: string, devScript: string | undefined) {
    this.writer = new ChangedFilesWriter(outDir, devScript);
  }

  /** The app's bundles for `srcDir` as it is now, and the stylesheet for `pages`. */
  async bundle(srcDir: string, pages: readonly CompletePage[]): Promise<void> {
    const bundles = await appBundles(srcDir);
    [this.client, this.renderRoute, this.appCss] = [bundles.client, bundles.prerender.renderRoute, bundles.appCss];
    await this.restyle(pages);
  }

  /** Makes the stylesheet for `pages`; returns whether it is another than before. */
  async restyle(pages: readonly CompletePage[]): Promise<boolean> {
    const before = this.css?.name;
    this.colours = stylesOf(pages);
    this.css = await siteCss(this.appCss, pages);
    return this.css.name !== before;
  }

  /** Whether `made` pages bring a code colour (or a formula's class) the stylesheet lacks. */
  lacksStyles(made: readonly CompletePage[]): boolean {
    return [...stylesOf(made)].some((colour) => !this.colours.has(colour));
  }

  /**
   * Writes the site's files into the dev output, as `how` says. The manifest points to the search data
   * made or kept (`updateSearch` catches up with kept data later), unless `early` gives the search data
   * and stylesheet of a site made ahead of the page pass.
   * Returns the manifest, the routes whose documents changed, and what the tabs are told of them.
   */
  async write(
    scanned: ReferencedSite,
    site: Site<PageRecord>,
    how: DevWrite,
    early?: { search: SearchFiles; css: Stylesheet },
  ): Promise<{ manifest: Manifest; written: string[]; update: DevUpdate }> {
    if (early) [this.search, this.css] = [early.search, early.css];
    else if (how.search || !this.search.entry) this.search = await buildSearchFiles(site.pages);
    const { css } = this;
    if (!css) throw new Error('dev: the site is written before the app is bundled');
    const { manifest, browserData, files } = outputFiles({
      config: scanned.config,
      site,
      search: this.search,
      client: this.client,
      css,
      renderRoute: this.renderRoute,
      // The git dates the scan asked for, when the site shows them: the same "last updated" as a build.
      history: await scanned.history,
      previous: this.written?.data,
    });
    const routes = (await this.writer.write(files, how.whole)).flatMap(
      (file) => ('document' in file && file.page?.route) || [],
    );
    this.written = { scanned, site, data: browserData };
    this.manifest = manifest;
    const pointer = pointerOf(manifest, browserData.shards, this.client.entry);
    const pages = routes.length > UPDATED_PAGES_NAMED ? [] : routes.flatMap((route) => updatedPage(browserData, route));
    return { manifest, written: routes, update: { pointer, pages } };
  }

  /** Writes the fragments of `pages` ahead of the site they are part of (`ChangedFilesWriter.writeAhead`). */
  async writeAhead(pages: readonly PageRecord[]): Promise<void> {
    await this.writer.writeAhead(pages.map((page) => fragmentFile(page)));
  }

  /**
   * Brings the search data up to date with the site last written; returns the deployment that points to
   * it, or undefined when it was up to date. Stops, rejecting, when `signal` is aborted (a save came).
   */
  async updateSearch(signal: AbortSignal): Promise<DevUpdate | undefined> {
    if (!this.written) return undefined;
    const search = await buildSearchFiles(this.written.site.pages, signal);
    // The entry names every shard by its content hash: the same entry is the same search data.
    if (search.entry === this.search.entry) return undefined;
    this.search = search;
    return (await this.write(this.written.scanned, this.written.site, { whole: false, search: false })).update;
  }

  /** Writes the files at `files` (paths in the output) made on request when the disk has older ones. */
  async writeRequested(files: string[]): Promise<void> {
    for (const file of files) await this.writer.writeRequested(file);
  }
}

/** The files a tab showing `route` reads of the data just written: its route shard and its fragment. */
function updatedPage({ records, shards }: BrowserData, route: string): UpdatedPage[] {
  const record = records.get(route);
  const shard = shards[shardOf(route, shards.length)];
  return record && shard !== undefined ? [{ path: route, key: record.key, shard, fragment: record.fragment }] : [];
}
