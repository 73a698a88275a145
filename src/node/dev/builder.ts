import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../../shared/types';
import { stylesOf, type PageSource } from '../analyze/page-record';
import { TextStore } from '../analyze/text-store';
import { readSiteConfig, SITE_CONFIG_FILE, type SiteConfig } from '../scan/site-config';
import { DiagnosticList, type Diagnostic } from '../diagnostics';
import { inSourceDocuments, withApiReference, type GeneratedSources } from '../openapi/api-reference';
import { PageHighlighter } from '../render/highlight/page-highlighter';
import { appBundles } from '../output/app-bundles';
import { splitForBrowser } from '../output/browser-data';
import { siteCss, type ClientAssets } from '../output/bundle';
import { pointerOf, siteFiles, type RenderRoute } from '../output/site-files';
import { assembleSite, type Site } from '../site/assemble';
import type { UnmadeReference } from '../openapi/unmade-references';
import { renderSite } from '../render/render-pages';
import { createManifest } from '../output/manifest';
import { buildSearchFiles, type SearchFiles } from '../site/search-files';
import { ChangedFilesWriter } from './changed-files';
import { PageCache, type PageContext } from './page-cache';

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
 * The production build's stages, kept in memory between edits. A content change re-renders only the pages
 * whose files changed (all of them when `_site.yaml`, an image or a partial changed), re-assembles the site
 * (cheap: link checks and the sidebar), and writes the files of the site (output/site-files.ts) that
 * changed: the changed pages' files, the manifest, version.json, llms.txt; `updateSearch()` then writes
 * the search data and a manifest pointing to it. Nothing hashed is deleted, so open tabs never hit a
 * missing manifest or fragment. A page's problems do not stop the write: `npm run build` refuses the
 * site, but the writer previews it, as the tabs show the problems over the pages they are in.
 *
 * Other pages' index.html are not re-rendered after an edit (their prerendered sidebar or prev/next can be
 * stale until the next full write); the app replaces that HTML with the current site data as soon as it
 * hydrates, so a reader only sees it for the first paint of a full page load.
 */
export class DevBuilder {
  private config!: SiteConfig;
  private configText = '';
  private configDiagnostics: Diagnostic[] = [];
  /** Whether `_site.yaml` was read without a problem (else the config is the defaults). */
  private configValid = true;
  /** The OpenAPI document each reference page is made from, where its problems are reported. */
  private generatedSources: GeneratedSources = new Map();
  /** The API references whose document has an error: links into them are not checked. */
  private unmadeReferences: readonly UnmadeReference[] = [];
  private readonly pages: PageCache;
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
  private assembled: Site<PageSource> | undefined;
  /** The last manifest written: what the browser shows. */
  manifest: Manifest | undefined;

  private constructor(
    private readonly options: DevBuilderOptions,
    private readonly highlighter: PageHighlighter,
  ) {
    this.pages = new PageCache(options.contentDir);
    this.texts = new TextStore(options.cacheDir);
    this.output = new ChangedFilesWriter(options.outDir, options.devScript);
  }

  static async create(options: DevBuilderOptions): Promise<DevBuilder> {
    await mkdir(options.cacheDir, { recursive: true });
    await mkdir(options.outDir, { recursive: true });
    return new DevBuilder(options, await PageHighlighter.load(options.cacheDir));
  }

  /** Lets go of what the session holds on disk; the builder is not used after. */
  close(): void {
    this.texts.close();
  }

  private get strict(): boolean {
    return this.options.strict ?? true;
  }

  /** Everything from scratch: config, pages, bundles, and the whole output. Written even with errors, so
   * the writer sees the pages while fixing them (with an unreadable `_site.yaml`, only when nothing was
   * written before). */
  async fullBuild(): Promise<DevResult> {
    const started = performance.now();
    this.pages.clear();
    await this.loadConfig();
    await this.pages.rescan([], this.pageContext());
    await this.bundle();
    const { assembled, diagnostics } = this.assemble();
    const ok = !diagnostics.some((d) => d.severity === 'error');
    if (!this.configValid && this.manifest) return this.result(started, false, diagnostics, [], false);
    const { manifest, written } = await this.write(assembled, 'all');
    await this.highlighter.save();
    return this.result(started, ok, diagnostics, written, true, manifest);
  }

  /** The client code changed: rebundle, rewrite every page, and have the tabs reload. */
  async sourceChanged(): Promise<DevResult> {
    const started = performance.now();
    await this.bundle();
    const { assembled, diagnostics } = this.assemble();
    const ok = !diagnostics.some((d) => d.severity === 'error');
    if (!this.configValid && this.manifest) return this.result(started, false, diagnostics, [], true);
    const { manifest, written } = await this.write(assembled, 'all');
    return this.result(started, ok, diagnostics, written, true, manifest);
  }

  /**
   * Files under the content folder changed (paths relative to it, `/`-separated; an empty list means
   * "look at everything"). Additions, renames and deletions are found by rescanning the tree.
   */
  async contentChanged(changed: string[]): Promise<DevResult> {
    const started = performance.now();
    let restart = false;
    let everything = changed.length === 0;
    if (changed.includes(SITE_CONFIG_FILE)) {
      const before = this.configText;
      await this.loadConfig();
      if (before !== this.configText) everything = restart = true;
    }
    // An OpenAPI document's pages are made again, and read again with the rest.
    const specs = new Set(this.config.apiReference.map((reference) => path.posix.normalize(reference.spec)));
    if (!everything && changed.some((file) => specs.has(file))) {
      await this.loadConfig();
      everything = true;
    }
    const reload = everything ? this.pages.paths : this.pages.affectedBy(changed);
    if (everything || changed.some((file) => this.pages.needsScan(file))) {
      await this.pages.rescan(reload, this.pageContext());
    } else await this.pages.reload(reload, this.pageContext());
    const { assembled, diagnostics } = this.assemble();
    const ok = !diagnostics.some((d) => d.severity === 'error');
    // A page's problems leave the site showable: it is written, and the tabs show the problems over it.
    // An unreadable `_site.yaml` would show the site with the defaults: the tabs keep the last good one.
    if (!this.configValid) return this.result(started, false, diagnostics, [], false);

    // Only a page rendered again can bring a colour (or a formula's class) the stylesheet lacks.
    const colours = stylesOf(this.pages.rendered());
    if (!restart && [...colours].some((colour) => !this.colours.has(colour))) {
      // A new code colour: a new stylesheet, which the open tabs only pick up by reloading.
      this.colours = stylesOf(assembled.pages);
      this.css = await siteCss(this.appCss, assembled.pages);
      restart = true;
    }
    // The previous search data for now (the file is already written); updateSearch() catches up.
    const { manifest, written } = await this.write(assembled, restart ? 'all' : 'changed');
    return this.result(started, ok, diagnostics, written, restart, manifest);
  }

  /**
   * Brings the search data up to date with the site last written. An edit is published first with the
   * previous search data (building the index takes longer than the rest of a rebuild); the dev session
   * calls this when no other change is waiting, and publishes the manifest it returns.
   */
  async updateSearch(): Promise<DevResult | undefined> {
    const started = performance.now();
    if (!this.assembled || !this.manifest) return undefined;
    const search = buildSearchFiles(this.assembled.pages);
    // The entry names every shard by its content hash: the same entry is the same search data.
    if (search.entry === this.search.entry) return undefined;
    this.search = search;
    const { manifest } = await this.write(this.assembled, 'changed');
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

  private async loadConfig(): Promise<void> {
    const diagnostics = new DiagnosticList();
    const site = await readSiteConfig(this.options.contentDir, diagnostics);
    const { contentDir, cacheDir, srcDir } = this.options;
    const reference = site.valid
      ? await withApiReference([], site.config, site.configText, { contentDir, srcDir, cacheDir, diagnostics })
      : { files: [], config: site.config, sources: new Map(), unmade: [] };
    this.pages.generated = reference.files;
    this.generatedSources = reference.sources;
    this.unmadeReferences = reference.unmade;
    this.config = reference.config;
    this.configText = site.configText;
    this.configDiagnostics = diagnostics.items;
    this.configValid = site.valid;
  }

  private pageContext(): PageContext {
    const { base, constants, embeds, lineNumbers } = this.config;
    const { highlighter, texts, strict } = this;
    return { base, constants, embeds, lineNumbers, highlighter, texts, strict };
  }

  private assemble(): { assembled: Site<PageSource>; diagnostics: Diagnostic[] } {
    const site = new DiagnosticList();
    const analyzed = assembleSite(
      this.pages.loaded(),
      this.config,
      this.configText,
      this.strict,
      site,
      this.unmadeReferences,
    );
    const assembled = renderSite(analyzed);
    site.items.push(...this.configDiagnostics, ...this.pages.diagnostics());
    return { assembled, diagnostics: inSourceDocuments(site, this.generatedSources) };
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
    assembled: Site<PageSource>,
    which: 'all' | 'changed',
  ): Promise<{ manifest: Manifest; written: string[] }> {
    if (which === 'all') this.search = buildSearchFiles(assembled.pages);
    const manifest = createManifest(this.config, assembled, this.search.entry, this.client);
    const files = siteFiles({
      manifest,
      // The same data files as `npm run build`, so that a page in dev reads what it reads in production.
      browserData: splitForBrowser(manifest),
      search: this.search,
      pages: assembled.pages,
      client: this.client,
      css: this.css,
      renderRoute: this.renderRoute,
    });
    const written = await this.output.write(files, which === 'all');
    this.assembled = assembled;
    this.manifest = manifest;
    return { manifest, written: written.flatMap((file) => ('document' in file && file.page?.route) || []) };
  }
}
