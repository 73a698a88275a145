import { existsSync, statSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FRAGMENT_CLOSE, FRAGMENT_OPEN } from '../../shared/constants';
import { headFor } from '../../shared/head';
import type { Manifest } from '../../shared/types';
import { createManifest, loadPrerender, readSiteConfig, siteCss, type RenderRoute } from '../build';
import { fragmentFileName, loadPage, type PageSource } from '../content/page-source';
import { isPageFile, scanContent, type ContentFile } from '../content/scan';
import { SITE_CONFIG_FILE, type SiteConfig } from '../content/site-config';
import { DiagnosticList, type Diagnostic } from '../diagnostics';
import { CodeHighlighter, codeColours, HighlightCache, highlightCss } from '../markdown/highlight';
import { bundleAppCss, bundleClient, type ClientAssets } from '../output/bundle';
import { renderDocument, type DocumentAssets } from '../output/document';
import { LLMS_FULL_FILE, LLMS_INDEX_FILE, markdownTwinFile, renderLlmsFiles } from '../output/llms';
import { pointerOf } from '../output/site-files';
import { writeDist } from '../output/write-site';
import { assembleSite, type AssembledSite } from '../site/assemble';
import { buildSearchData } from '../site/search-index';

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
 * (cheap: link checks and the sidebar), and writes only what changed: the changed pages' fragments and
 * index.html, the manifest and version.json; `updateSearch()` then writes the search data and a manifest
 * pointing to it. Nothing is deleted except the index.html of a removed page, so open tabs never hit a
 * missing manifest or fragment.
 *
 * Other pages' index.html are not re-rendered after an edit (their prerendered sidebar or prev/next can be
 * stale until the next full write); the app replaces that HTML with the current manifest as soon as it
 * hydrates, so a reader only sees it for the first paint of a full page load.
 */
export class DevBuilder {
  private config!: SiteConfig;
  private configText = '';
  private configDiagnostics: Diagnostic[] = [];
  private scanDiagnostics: Diagnostic[] = [];
  private readonly pages = new Map<string, PageSource | undefined>();
  private files = new Map<string, ContentFile>();
  private readonly pageDiagnostics = new Map<string, Diagnostic[]>();
  private client!: ClientAssets;
  private renderRoute!: RenderRoute;
  /** The app's own CSS, bundled; the stylesheet adds the code colours to it. */
  private appCss = '';
  private css!: { name: string; css: Uint8Array };
  private highlightCss = '';
  /** route → `key.hash` of the fragment its index.html was last written with. */
  private readonly written = new Map<string, string>();
  /** The search data the last manifest points to, and the last good site. */
  private searchJson = '';
  private assembled: AssembledSite | undefined;
  /** The last manifest written: what the browser shows. */
  manifest: Manifest | undefined;

  private constructor(
    private readonly options: DevBuilderOptions,
    private readonly highlightCache: HighlightCache,
    private readonly highlighter: CodeHighlighter,
  ) {}

  static async create(options: DevBuilderOptions): Promise<DevBuilder> {
    await mkdir(options.cacheDir, { recursive: true });
    await mkdir(options.outDir, { recursive: true });
    const cache = await HighlightCache.load(path.join(options.cacheDir, 'highlight.json'));
    return new DevBuilder(options, cache, await CodeHighlighter.create(cache));
  }

  private get strict(): boolean {
    return this.options.strict ?? true;
  }

  /** Everything from scratch: config, pages, bundles, and the whole output. Written even with errors when
   * nothing was written before, so the writer has a page to look at while fixing them. */
  async fullBuild(): Promise<DevResult> {
    const started = performance.now();
    this.pages.clear();
    this.pageDiagnostics.clear();
    await this.loadConfig();
    await this.rescan([]);
    await this.bundle();
    const { assembled, diagnostics } = this.assemble();
    const ok = !diagnostics.some((d) => d.severity === 'error');
    if (!ok && this.manifest) return this.result(started, false, diagnostics, [], false);
    const manifest = await this.writeAll(assembled);
    await this.highlightCache.save();
    return this.result(started, ok, diagnostics, [...this.written.keys()], true, manifest);
  }

  /** The client code changed: rebundle, rewrite every page, and have the tabs reload. */
  async sourceChanged(): Promise<DevResult> {
    const started = performance.now();
    await this.bundle();
    const { assembled, diagnostics } = this.assemble();
    if (diagnostics.some((d) => d.severity === 'error') && this.manifest) {
      return this.result(started, false, diagnostics, [], true);
    }
    const manifest = await this.writeAll(assembled);
    return this.result(started, true, diagnostics, [...this.written.keys()], true, manifest);
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
    const reload = everything ? [...this.pages.keys()] : this.affectedBy(changed);
    if (everything || changed.some((file) => this.needsScan(file))) await this.rescan(reload);
    else await this.reloadPages(reload);
    const { assembled, diagnostics } = this.assemble();
    if (diagnostics.some((d) => d.severity === 'error')) return this.result(started, false, diagnostics, [], false);

    if (restart) {
      const manifest = await this.writeAll(assembled);
      return this.result(started, true, diagnostics, [...this.written.keys()], true, manifest);
    }
    if (this.hasNewCodeColours(assembled)) {
      // A new code colour: a new stylesheet, which the open tabs only pick up by reloading.
      this.highlightCss = highlightCss(assembled.pages.map((p) => p.html));
      this.css = await siteCss(this.appCss, assembled.pages);
      const manifest = await this.writeAll(assembled);
      return this.result(started, true, diagnostics, [...this.written.keys()], true, manifest);
    }
    const { manifest, written } = await this.writeChanged(assembled);
    return this.result(started, true, diagnostics, written, false, manifest);
  }

  /**
   * Brings the search data up to date with the last good content. An edit is published first with the
   * previous search data (building the index takes longer than the rest of a rebuild); the dev session
   * calls this when no other change is waiting, and publishes the manifest it returns.
   */
  async updateSearch(): Promise<DevResult | undefined> {
    const started = performance.now();
    if (!this.assembled || !this.manifest) return undefined;
    const searchJson = JSON.stringify(buildSearchData(this.assembled.pages));
    if (searchJson === this.searchJson) return undefined;
    this.searchJson = searchJson;
    const manifest = createManifest(this.config, this.assembled, searchJson, this.client);
    const pointer = pointerOf(manifest);
    const inOut = (url: string) => path.join(this.options.outDir, url.slice(manifest.site.base.length));
    await Promise.all([
      writeFile(inOut(manifest.search), searchJson),
      writeFile(inOut(pointer.manifest), JSON.stringify(manifest)),
    ]);
    await writeFile(path.join(this.options.outDir, 'version.json'), `${JSON.stringify(pointer)}\n`);
    this.manifest = manifest;
    return this.result(started, true, [], [], false, manifest);
  }

  /** Whether a path calls for a rescan of the tree: a page that is new or gone, a folder, anything removed. */
  private needsScan(file: string): boolean {
    const full = path.join(this.options.contentDir, file);
    if (isPageFile(file)) return !this.pages.has(file) || !existsSync(full);
    try {
      return !statSync(full).isFile();
    } catch {
      return true;
    }
  }

  /** Code colours in the site's pages that the current stylesheet does not have. */
  private hasNewCodeColours(assembled: AssembledSite): boolean {
    for (const pair of codeColours(assembled.pages.map((p) => p.html))) {
      if (!this.highlightCss.includes(`.c-${pair}{`)) return true;
    }
    return false;
  }

  /**
   * The pages to render again: the changed page files, the pages that use a changed image, and the pages
   * that had problems (a missing image or a bad file may have been fixed by this change).
   */
  private affectedBy(changed: string[]): string[] {
    const files = new Set(changed.map((file) => path.join(path.resolve(this.options.contentDir), file)));
    const affected = new Set(changed.filter(isPageFile));
    for (const [file, page] of this.pages) {
      if ((this.pageDiagnostics.get(file) ?? []).length > 0 || !page) affected.add(file);
      else if (page.analysis.assets.some((asset) => files.has(asset.absolutePath))) affected.add(file);
    }
    return [...affected];
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
    const { config, configText } = await readSiteConfig(this.options.contentDir, diagnostics);
    this.config = config;
    this.configText = configText;
    this.configDiagnostics = diagnostics.items;
  }

  /** Rescans the tree; loads new files and the `reload` ones again, forgets removed ones. */
  private async rescan(reload: string[]): Promise<void> {
    const scan = new DiagnosticList();
    const files = await scanContent(this.options.contentDir, scan);
    this.scanDiagnostics = scan.items;
    const present = new Set(files.map((f) => f.relativePath));
    for (const known of [...this.pages.keys()]) {
      if (!present.has(known)) {
        this.pages.delete(known);
        this.pageDiagnostics.delete(known);
      }
    }
    const again = new Set(reload);
    const load = files.filter((f) => again.has(f.relativePath) || !this.pages.has(f.relativePath));
    this.files = new Map(files.map((f) => [f.relativePath, f]));
    // The map keeps the scan's order, which is the order the production build assembles pages in.
    const order = files.map((f) => f.relativePath);
    const loaded = await Promise.all(load.map((file) => this.loadOne(file)));
    for (const [i, file] of load.entries()) this.pages.set(file.relativePath, loaded[i]);
    const sorted = order.map((p) => [p, this.pages.get(p)] as const);
    this.pages.clear();
    for (const [p, page] of sorted) this.pages.set(p, page);
  }

  /** Renders known pages again, without a rescan (their files are still there). */
  private async reloadPages(files: string[]): Promise<void> {
    const load = files.flatMap((file) => this.files.get(file) ?? []);
    const loaded = await Promise.all(load.map((file) => this.loadOne(file)));
    for (const [i, file] of load.entries()) this.pages.set(file.relativePath, loaded[i]);
  }

  private async loadOne(file: ContentFile): Promise<PageSource | undefined> {
    const diagnostics = new DiagnosticList();
    const site = {
      base: this.config.base,
      constants: this.config.constants,
      embeds: this.config.embeds,
      highlighter: this.highlighter,
      strict: this.strict,
      diagnostics,
    };
    const page = await loadPage(file, site).catch((error: unknown) => {
      // A file removed between the scan and the read: the next event rescans.
      diagnostics.error(file.relativePath, 1, 1, `could not read the file: ${(error as Error).message}`);
      return undefined;
    });
    this.pageDiagnostics.set(file.relativePath, diagnostics.items);
    return page;
  }

  private assemble(): { assembled: AssembledSite; diagnostics: Diagnostic[] } {
    const site = new DiagnosticList();
    const loaded = [...this.pages.values()].filter((p): p is PageSource => p !== undefined);
    const assembled = assembleSite(loaded, this.config, this.configText, this.strict, site);
    site.items.push(...this.configDiagnostics, ...this.scanDiagnostics);
    for (const items of this.pageDiagnostics.values()) site.items.push(...items);
    return { assembled, diagnostics: site.sorted() };
  }

  private async bundle(): Promise<void> {
    const { srcDir } = this.options;
    const pages = [...this.pages.values()].filter((p): p is PageSource => p !== undefined);
    this.highlightCss = highlightCss(pages.map((p) => p.html));
    [this.client, this.renderRoute, this.appCss] = await Promise.all([
      bundleClient(srcDir),
      loadPrerender(srcDir),
      bundleAppCss(srcDir),
    ]);
    this.css = await siteCss(this.appCss, pages);
  }

  /** The whole output, as `npm run build` writes dist/, plus the dev client in every page. */
  private async writeAll(assembled: AssembledSite): Promise<Manifest> {
    const searchJson = JSON.stringify(buildSearchData(assembled.pages));
    const manifest = createManifest(this.config, assembled, searchJson, this.client);
    this.searchJson = searchJson;
    this.assembled = assembled;
    const { outDir } = this.options;
    await writeDist(outDir, {
      manifest,
      searchJson,
      pages: assembled.pages,
      client: this.client,
      css: this.css,
      renderRoute: this.renderRoute,
    });
    const html = [
      ...assembled.pages.map((p) => path.join(outDir, p.route, 'index.html')),
      path.join(outDir, '404.html'),
    ];
    await Promise.all(html.map(async (file) => writeFile(file, this.withDevScript(await readFile(file, 'utf8')))));
    for (const route of this.written.keys()) {
      if (!assembled.byRoute.has(route)) await rm(path.join(outDir, route, 'index.html'), { force: true });
    }
    this.written.clear();
    for (const page of assembled.pages) this.written.set(page.route, `${page.key}.${page.hash}`);
    this.manifest = manifest;
    return manifest;
  }

  /** Only what an edit changed: the pages whose fragment is new, the manifest, version.json, the search data. */
  private async writeChanged(assembled: AssembledSite): Promise<{ manifest: Manifest; written: string[] }> {
    // The previous search data for now (the file is already written); updateSearch() catches up.
    const manifest = createManifest(this.config, assembled, this.searchJson, this.client);
    this.assembled = assembled;
    const { outDir } = this.options;
    const base = manifest.site.base;
    const inOut = (url: string) => path.join(outDir, url.slice(base.length));
    const pointer = pointerOf(manifest);
    const changed = assembled.pages.filter((p) => this.written.get(p.route) !== `${p.key}.${p.hash}`);
    const metas = new Map(manifest.pages.map((p) => [p.path, p]));
    const assets: DocumentAssets = {
      base,
      css: this.css.name,
      entry: this.client.entry,
      theme: this.client.theme,
      preload: this.client.preload,
      manifest: pointer.manifest,
    };
    // Fragments, images and the manifest first, then the pointer: a tab never reads a manifest whose files are missing.
    await Promise.all([
      ...changed.map(async (page) => {
        const fragment = path.join(outDir, 'assets/js', fragmentFileName(page));
        if (!existsSync(fragment)) await writeFile(fragment, FRAGMENT_OPEN + page.html + FRAGMENT_CLOSE);
        for (const asset of page.analysis.assets) {
          const target = inOut(asset.url);
          await mkdir(path.dirname(target), { recursive: true });
          await copyFile(asset.absolutePath, target);
        }
      }),
      writeFile(inOut(pointer.manifest), JSON.stringify(manifest)),
    ]);
    await writeFile(path.join(outDir, 'version.json'), `${JSON.stringify(pointer)}\n`);
    await Promise.all(
      changed.map(async (page) => {
        const meta = metas.get(page.route);
        const appHtml = await this.renderRoute(manifest, page.route, meta, page.html);
        const doc = renderDocument(headFor(manifest.site, meta), appHtml, assets, manifest.site.analyticsId);
        await mkdir(path.join(outDir, page.route), { recursive: true });
        await writeFile(path.join(outDir, page.route, 'index.html'), this.withDevScript(doc));
        this.written.set(page.route, `${page.key}.${page.hash}`);
      }),
    );
    // The pages for AI assistants: the changed pages' twins and the two indexes (dist/ as writeDist makes it).
    const llms = renderLlmsFiles(manifest, assembled.pages);
    await Promise.all([
      ...changed.map((page) => writeFile(path.join(outDir, markdownTwinFile(page.route)), page.markdown)),
      writeFile(path.join(outDir, LLMS_INDEX_FILE), llms.index),
      writeFile(path.join(outDir, LLMS_FULL_FILE), llms.full),
    ]);
    for (const route of [...this.written.keys()]) {
      if (assembled.byRoute.has(route)) continue;
      await rm(path.join(outDir, route, 'index.html'), { force: true });
      await rm(path.join(outDir, markdownTwinFile(route)), { force: true });
      this.written.delete(route);
    }
    this.manifest = manifest;
    return { manifest, written: changed.map((p) => p.route) };
  }

  private withDevScript(html: string): string {
    const src = this.options.devScript;
    return src ? html.replace('</head>', `<script src="${src}"></script>\n</head>`) : html;
  }
}
