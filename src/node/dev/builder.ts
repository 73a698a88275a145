import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../../shared/types';
import { DiagnosticList, type Diagnostic } from '../diagnostics';
import {
  appBundles,
  buildSearchFiles,
  ChangedFilesWriter,
  outputFiles,
  PageHighlighter,
  pointerOf,
  readSite,
  reported,
  siteCss,
  siteOf,
  SITE_CONFIG_FILE,
  stylesOf,
  TextStore,
  type ClientAssets,
  type PageRecord,
  type PageTools,
  type ReferencedSite,
  type RenderRoute,
  type SearchFiles,
  type SiteConfig,
  type Site,
} from '../site-stages';
import { CurrentPages } from './current-pages';

export interface DevBuilderOptions {
  contentDir: string;
  /** The dev output: a temporary folder, never the repository's dist/. */
  outDir: string;
  /** The highlight cache, kept between rebuilds. */
  cacheDir: string;
  srcDir: string;
  /** Broken links and the like are errors (as in `npm run build`); default true. */
  strict?: boolean;
  /** URL of the dev client script, added to every HTML page written (dev only). */
  devScript?: string;
}

export interface DevResult {
  /** No error: a result with errors may still have written the site, which then shows them. */
  ok: boolean;
  /** Errors and warnings of the whole site as it is now on disk, sorted. */
  diagnostics: Diagnostic[];
  ms: number;
  /** The manifest the browser should switch to (when the output was written). */
  manifest?: string;
  /** Routes whose fragment and index.html were written. */
  written: string[];
  /** The open tabs must reload: the client bundle, the stylesheet or the site configuration changed. */
  reload: boolean;
}

/**
 * The build's stages (site-stages.ts), run again after each edit with their results kept in memory. At the
 * start every page is made by the build's page pass (current-pages.ts); a content change makes again only
 * the pages it touches (all of them when `_site.yaml` or an OpenAPI document changed), puts the site
 * together again (cheap: link checks and the sidebar), and writes the files of the site that changed: the changed pages' files, the manifest, version.json, llms.txt; `updateSearch()` then writes
 * the search data and a manifest pointing to it. Nothing hashed is deleted, so open tabs never hit a
 * missing manifest or fragment. A page's problems do not stop the write: `npm run build` refuses the
 * site, but the writer previews it, as the tabs show the problems over the pages they are in.
 *
 * Other pages' index.html are not re-rendered after an edit (their prerendered sidebar or prev/next can be
 * stale until the next full write); the app replaces that HTML with the current site data as soon as it
 * hydrates, so a reader only sees it for the first paint of a full page load.
 */
export class DevBuilder {
  /** The site as last read (`readSite`): settings, page files, the API reference's pages. */
  private scanned: ReferencedSite | undefined;
  /** The problems of `_site.yaml`, the scan and the API reference, as last read. */
  private siteDiagnostics: Diagnostic[] = [];
  /** Whether `_site.yaml` was read without a problem (else the site is the one last read). */
  private configValid = true;
  private readonly pages: CurrentPages;
  /** The pages' fragments and markdown, for the whole session. */
  private readonly texts: TextStore;
  private readonly output: ChangedFilesWriter;
  private client!: ClientAssets;
  private renderRoute!: RenderRoute;
  /** The app's own CSS, bundled; the stylesheet adds the code colours to it. */
  private appCss = '';
  private css!: { name: string; css: Uint8Array };
  /** The code colours and formula classes the stylesheet has. */
  private colours = new Set<string>();
  /** The search data the last manifest points to, and the site last written. */
  private search: SearchFiles = { entry: '', shards: [] };
  private assembled: Site<PageRecord> | undefined;
  /** The last manifest written: what the browser shows. */
  manifest: Manifest | undefined;

  private constructor(
    private readonly options: DevBuilderOptions,
    private readonly highlighter: PageHighlighter,
  ) {
    this.pages = new CurrentPages(options.contentDir);
    this.texts = new TextStore(options.cacheDir);
    this.output = new ChangedFilesWriter(options.outDir, options.devScript);
  }

  static async create(options: DevBuilderOptions): Promise<DevBuilder> {
    await mkdir(options.cacheDir, { recursive: true });
    await mkdir(options.outDir, { recursive: true });
    return new DevBuilder(options, await PageHighlighter.load(options.cacheDir));
  }

  /** The site's settings as last read without a problem; none before `_site.yaml` could be read. */
  get config(): SiteConfig | undefined {
    return this.scanned?.config;
  }

  /** Lets go of what the session holds on disk; the builder is not used after. */
  close(): void {
    this.texts.close();
  }

  private get strict(): boolean {
    return this.options.strict ?? true;
  }

  /** Everything from scratch: settings, pages, bundles, and the whole output. Written even with errors, so
   * the writer sees the pages while fixing them; with an unreadable `_site.yaml`, nothing is written. */
  async fullBuild(): Promise<DevResult> {
    const started = performance.now();
    const scanned = await this.readSite();
    if (!scanned) return this.result(started, false, this.siteDiagnostics, [], false);
    await this.pages.makeAll(scanned, this.allPagesOptions());
    await this.bundle();
    const { assembled, diagnostics } = this.assemble(scanned);
    const ok = !diagnostics.some((d) => d.severity === 'error');
    const { manifest, written } = await this.write(scanned, assembled, 'all');
    await this.highlighter.save();
    return this.result(started, ok, diagnostics, written, true, manifest);
  }

  /** The client code changed: rebundle, rewrite every page, and have the tabs reload. */
  async sourceChanged(): Promise<DevResult> {
    const started = performance.now();
    const scanned = this.scanned;
    if (!scanned || !this.configValid) return this.result(started, false, this.siteDiagnostics, [], false);
    await this.bundle();
    const { assembled, diagnostics } = this.assemble(scanned);
    const ok = !diagnostics.some((d) => d.severity === 'error');
    const { manifest, written } = await this.write(scanned, assembled, 'all');
    return this.result(started, ok, diagnostics, written, true, manifest);
  }

  /**
   * Files under the content folder changed (paths relative to it, `/`-separated; an empty list means
   * "look at everything"). Additions, renames and deletions are found by scanning the tree again.
   */
  async contentChanged(changed: string[]): Promise<DevResult> {
    const started = performance.now();
    const before = this.scanned;
    // Changes made while `_site.yaml` could not be read were never applied: everything is made again.
    const missed = !this.configValid;
    // The settings, an OpenAPI document or the tree's files: the site is read again.
    const specs = new Set(before?.config.apiReference.map((reference) => path.posix.normalize(reference.spec)));
    const readAgain =
      !before ||
      missed ||
      changed.length === 0 ||
      changed.some((file) => file === SITE_CONFIG_FILE || specs.has(file) || this.pages.needsScan(file));
    const scanned = readAgain ? await this.readSite() : before;
    // An unreadable `_site.yaml` would show the site with the defaults: the tabs keep the last good one.
    if (!scanned) return this.result(started, false, this.siteDiagnostics, [], false);
    const everything =
      !before ||
      missed ||
      changed.length === 0 ||
      scanned.configText !== before.configText ||
      changed.some((file) => specs.has(file));
    if (everything) {
      await this.pages.makeAll(scanned, this.allPagesOptions());
      await this.bundle();
    } else if (readAgain) await this.pages.rescan(this.pages.affectedBy(changed), scanned, this.tools());
    else await this.pages.remake(this.pages.affectedBy(changed), scanned.config, this.tools());
    const { assembled, diagnostics } = this.assemble(scanned);
    const ok = !diagnostics.some((d) => d.severity === 'error');
    let restart = everything;
    // Only a page made again can bring a colour (or a formula's class) the stylesheet lacks.
    const colours = stylesOf(this.pages.made());
    if (!restart && [...colours].some((colour) => !this.colours.has(colour))) {
      // A new code colour: a new stylesheet, which the open tabs only pick up by reloading.
      this.colours = stylesOf(assembled.pages);
      this.css = await siteCss(this.appCss, assembled.pages);
      restart = true;
    }
    // A page's problems leave the site showable: it is written, and the tabs show the problems over it.
    // The previous search data for now (the file is already written); updateSearch() catches up.
    const { manifest, written } = await this.write(scanned, assembled, restart ? 'all' : 'changed');
    return this.result(started, ok, diagnostics, written, restart, manifest);
  }

  /**
   * Brings the search data up to date with the site last written. An edit is published first with the
   * previous search data (building the index takes longer than the rest of a rebuild); the dev session
   * calls this when no other change is waiting, and publishes the manifest it returns.
   */
  async updateSearch(): Promise<DevResult | undefined> {
    const started = performance.now();
    if (!this.assembled || !this.manifest || !this.scanned) return undefined;
    const search = buildSearchFiles(this.assembled.pages);
    // The entry names every shard by its content hash: the same entry is the same search data.
    if (search.entry === this.search.entry) return undefined;
    this.search = search;
    const { manifest } = await this.write(this.scanned, this.assembled, 'changed');
    return this.result(started, true, [], [], false, manifest);
  }

  private result(
    started: number,
    ok: boolean,
    diagnostics: Diagnostic[],
    written: string[],
    reload: boolean,
    manifest?: Manifest,
  ): DevResult {
    return {
      ok,
      diagnostics,
      ms: performance.now() - started,
      written,
      reload,
      ...(manifest ? { manifest: pointerOf(manifest).manifest } : {}),
    };
  }

  /** Reads the site again: kept when `_site.yaml` is readable, else the one last read stays. */
  private async readSite(): Promise<ReferencedSite | undefined> {
    const diagnostics = new DiagnosticList();
    const { contentDir, srcDir, cacheDir } = this.options;
    const scanned = await readSite(contentDir, diagnostics, { srcDir, cacheDir });
    this.siteDiagnostics = diagnostics.items;
    this.configValid = scanned !== undefined;
    if (scanned) this.scanned = scanned;
    return scanned;
  }

  private tools(): PageTools {
    const { highlighter, texts, strict } = this;
    return { highlighter, texts, strict };
  }

  private allPagesOptions() {
    const { srcDir, cacheDir } = this.options;
    return { ...this.tools(), srcDir, cacheDir };
  }

  private assemble(scanned: ReferencedSite): { assembled: Site<PageRecord>; diagnostics: Diagnostic[] } {
    const site = new DiagnosticList();
    const assembled = siteOf(this.pages.loaded(), scanned, this.strict, site);
    site.items.push(...this.siteDiagnostics, ...this.pages.diagnostics());
    return { assembled, diagnostics: reported(site, scanned) };
  }

  private async bundle(): Promise<void> {
    const { srcDir } = this.options;
    const pages = this.pages.loaded();
    this.colours = stylesOf(pages);
    ({
      client: this.client,
      prerender: { renderRoute: this.renderRoute },
      appCss: this.appCss,
    } = await appBundles(srcDir));
    this.css = await siteCss(this.appCss, pages);
  }

  /**
   * Writes the site's files into the dev output: all of them, or those that changed. A full write also
   * brings the search data up to date; otherwise the manifest points to the search data already written.
   * Returns the manifest and the routes whose documents were written.
   */
  private async write(
    scanned: ReferencedSite,
    assembled: Site<PageRecord>,
    which: 'all' | 'changed',
  ): Promise<{ manifest: Manifest; written: string[] }> {
    if (which === 'all') this.search = buildSearchFiles(assembled.pages);
    // The same data files as `npm run build`, so that a page in dev reads what it reads in production.
    const { manifest, files } = outputFiles({
      config: scanned.config,
      site: assembled,
      search: this.search,
      client: this.client,
      css: this.css,
      renderRoute: this.renderRoute,
      // The git dates the scan asked for, when the site shows them: the same "last updated" as a build.
      history: await scanned.history,
    });
    const written = await this.output.write(files, which === 'all');
    this.assembled = assembled;
    this.manifest = manifest;
    return { manifest, written: written.flatMap((file) => ('document' in file && file.page?.route) || []) };
  }
}
