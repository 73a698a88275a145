import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { canonicalRoute } from '../../shared/paths';
import type { Manifest } from '../../shared/types';
import { DiagnosticList, type Diagnostic } from '../diagnostics';
import {
  PageHighlighter,
  readSite,
  reported,
  siteOf,
  SITE_CONFIG_FILE,
  TextStore,
  type PageRecord,
  type PageTools,
  type ReferencedSite,
  type SiteConfig,
  type Site,
} from '../site-stages';
import { CurrentPages } from './current-pages';
import { DevOutput } from './dev-output';
import { devResult, type DevResult } from './dev-result';
import { EarlySite } from './early-site';

/** How many pages' fragments the first page pass writes in one step of the output's queue. */
const FRAGMENTS_A_STEP = 200;

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

/**
 * The build's stages (site-stages.ts), run again after each edit with their results kept in memory. At the
 * start every page is made by the build's page pass (current-pages.ts), while the pages asked for before
 * it ends are made ahead of it (early-site.ts); a content change makes again only the pages it touches
 * (all of them when `_site.yaml` or an OpenAPI document changed), puts the site together again (cheap:
 * link checks and the sidebar), and writes the files of the site that changed (dev-output.ts): the
 * changed pages' files, the manifest, version.json, llms.txt; `updateSearch()` then writes the search
 * data and a manifest pointing to it. Nothing hashed is deleted, so open tabs never hit a missing
 * manifest or fragment. A page's problems do not stop the write: `npm run build` refuses the site, but the
 * writer previews it, as the tabs show the problems over the pages they are in.
 *
 * A page's document is rendered when it is asked for (`prepare`), as the site is then: a tab reads the
 * rest of the site from the data files, which the app replaces the document's sidebar and prev/next with
 * as soon as it hydrates.
 */
export class DevBuilder {
  /** The site as last read (`readSite`): settings, page files, the API reference's pages. */
  private scanned: ReferencedSite | undefined;
  /** The problems of `_site.yaml`, the scan and the API reference, as last read. */
  private siteDiagnostics: Diagnostic[] = [];
  /** Whether `_site.yaml` was read without a problem (else the site is the one last read). */
  private configValid = true;
  private readonly pages: CurrentPages;
  /** Until the first page pass has made the site, the pages made ahead of it (`preview`). */
  private early: EarlySite | undefined;
  /** The last step that writes the output (`exclusive`). */
  private queue: Promise<unknown> = Promise.resolve();
  /** The pages' fragments and markdown, for the whole session. */
  private readonly texts: TextStore;
  private readonly output: DevOutput;
  private readonly stopping = new AbortController();
  private readonly strict: boolean;
  /** Stops the search data's update under way (`updateSearch`), if any. */
  private searching: AbortController | undefined;

  private constructor(
    private readonly options: DevBuilderOptions,
    private readonly highlighter: PageHighlighter,
  ) {
    this.strict = options.strict ?? true;
    this.pages = new CurrentPages(options.contentDir);
    this.texts = new TextStore(options.cacheDir);
    this.output = new DevOutput(options.outDir, options.devScript);
  }

  static async create(options: DevBuilderOptions): Promise<DevBuilder> {
    await mkdir(options.cacheDir, { recursive: true });
    await mkdir(options.outDir, { recursive: true });
    return new DevBuilder(options, await PageHighlighter.load(options.cacheDir));
  }

  /** The last manifest written: what the browser shows. */
  get manifest(): Manifest | undefined {
    return this.output.manifest;
  }

  /** The site's settings as last read without a problem; none before `_site.yaml` could be read. */
  get config(): SiteConfig | undefined {
    return this.scanned?.config;
  }

  /** Ends the first page pass if it still runs: its `fullBuild` then rejects. */
  stop(): void {
    this.stopping.abort();
  }

  /** Lets go of what the session holds on disk; the builder is not used after. */
  close(): void {
    this.texts.close();
  }

  /**
   * What the first answer needs before any page is made: the site's settings and files, and the app's
   * bundles. Until `fullBuild` has made the site, `preview` makes the pages asked for one by one.
   */
  async readFirst(): Promise<void> {
    if (!(await this.readSite())) return;
    await this.output.bundle(this.options.srcDir, []);
    this.early = new EarlySite(this.options.contentDir);
  }

  /** Everything from scratch: the pages, the stylesheet, the whole output; written even with errors (the
   * tabs show them), with an unreadable `_site.yaml` not at all. */
  async fullBuild(): Promise<DevResult> {
    const started = performance.now();
    // The site as `readFirst` read it: a file changed since is made again by the change that follows.
    const readAhead = this.early !== undefined;
    const scanned = readAhead && this.scanned ? this.scanned : await this.readSite();
    if (!scanned) return devResult(started, false, this.siteDiagnostics, [], false);
    await this.pages.makeAll(scanned, this.allPagesOptions());
    // The whole site's writing gives way to saves: its fragments go a batch a step of the output's queue (a
    // save heard between two, its page is made ahead), and its search data to `updateSearch`, which a save stops.
    const { assembled, diagnostics } = this.assemble(scanned);
    for (let from = 0; from < assembled.pages.length; from += FRAGMENTS_A_STEP) {
      await setImmediate(undefined, { signal: this.stopping.signal });
      await this.exclusive(() => this.output.writeAhead(assembled.pages.slice(from, from + FRAGMENTS_A_STEP)));
    }
    return this.exclusive(async () => {
      this.early = undefined;
      const pages = this.pages.loaded();
      // A tab showing pages made ahead reloads only for a new stylesheet; otherwise it takes the new data.
      const restyled = readAhead
        ? await this.output.restyle(pages)
        : (await this.output.bundle(this.options.srcDir, pages), true);
      const ok = !diagnostics.some((d) => d.severity === 'error');
      const { update, written } = await this.output.write(scanned, assembled, { whole: true, search: false });
      await this.highlighter.save();
      return devResult(started, ok, diagnostics, written, restyled, update);
    });
  }

  /**
   * While the first page pass runs: makes the pages of `files` (paths in the content folder) at once and
   * writes the site they make on their own (early-site.ts), so that a tab shows them long before the whole
   * site is made. Undefined once the site is made.
   */
  async preview(files: string[]): Promise<DevResult | undefined> {
    const started = performance.now();
    return this.exclusive(async () => {
      const { early, scanned } = this;
      if (!early || !scanned) return undefined;
      const { site, diagnostics, ...styled } = await early.make(files, scanned, this.tools(), this.output.appCss);
      const { update, written } = await this.output.write(scanned, site, { whole: false, search: false }, styled);
      const ok = !diagnostics.some((d) => d.severity === 'error');
      return devResult(started, ok, diagnostics, written, false, update);
    });
  }

  /**
   * Makes sure the file a request for `pathname` reads (a page's document, `llms-full.txt`) is written as
   * the site now is: made on request, and before the site is made, a page made first (`preview`).
   */
  async prepare(pathname: string): Promise<DevResult | undefined> {
    const base = this.manifest?.site.base ?? this.scanned?.config.base;
    if (!base || !pathname.startsWith(base) || pathname.startsWith(`${base}assets/`)) return undefined;
    const inSite = pathname.slice(base.length);
    const route = canonicalRoute(`/${inSite}`);
    const file = this.early && this.scanned && this.early.fileFor(route, this.scanned);
    const previewed = file ? await this.preview([file]) : undefined;
    // The file asked for itself (`llms-full.txt`), or the document of the page it names.
    await this.output.writeRequested([inSite, `${route.slice(1)}index.html`]);
    return previewed;
  }

  /** Runs `step` once the steps asked for before it are done: the output is written by one at a time. */
  private exclusive<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The client code changed: rebundle, rewrite every page, and have the tabs reload. */
  async sourceChanged(): Promise<DevResult> {
    const started = performance.now();
    const scanned = this.scanned;
    if (!scanned || !this.configValid) return devResult(started, false, this.siteDiagnostics, [], false);
    await this.output.bundle(this.options.srcDir, this.pages.loaded());
    const { assembled, diagnostics } = this.assemble(scanned);
    const ok = !diagnostics.some((d) => d.severity === 'error');
    const { update, written } = await this.output.write(scanned, assembled, { whole: true, search: true });
    return devResult(started, ok, diagnostics, written, true, update);
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
    // Nothing read before, changes missed, or "look at everything": all is read and made again.
    const all = !before || missed || changed.length === 0;
    const readAgain =
      all || changed.some((file) => file === SITE_CONFIG_FILE || specs.has(file) || this.pages.needsScan(file));
    const scanned = readAgain ? await this.readSite() : before;
    // An unreadable `_site.yaml` would show the site with the defaults: the tabs keep the last good one.
    if (!scanned) return devResult(started, false, this.siteDiagnostics, [], false);
    const everything = all || scanned.configText !== before.configText || changed.some((file) => specs.has(file));
    if (everything) {
      await this.pages.makeAll(scanned, this.allPagesOptions());
      await this.output.bundle(this.options.srcDir, this.pages.loaded());
    } else if (readAgain) await this.pages.rescan(this.pages.affectedBy(changed), scanned, this.tools());
    else await this.pages.remake(this.pages.affectedBy(changed), scanned.config, this.tools());
    const { assembled, diagnostics } = this.assemble(scanned);
    const ok = !diagnostics.some((d) => d.severity === 'error');
    let restart = everything;
    // Only a page made again can bring a colour (or a formula's class) the stylesheet lacks.
    if (!restart && this.output.lacksStyles(this.pages.made())) {
      // A new code colour: a new stylesheet, which the open tabs only pick up by reloading.
      await this.output.restyle(assembled.pages);
      restart = true;
    }
    // A page's problems leave the site showable: it is written, and the tabs show the problems over it.
    // The previous search data for now (the file is already written); updateSearch() catches up.
    const { update, written } = await this.output.write(scanned, assembled, { whole: restart, search: restart });
    return devResult(started, ok, diagnostics, written, restart, update);
  }

  /**
   * Brings the search data up to date with the site last written. An edit is published first with the
   * previous search data (building the index takes longer than the rest of a rebuild); the dev session
   * calls this when no other change is waiting, and publishes the manifest it returns.
   */
  async updateSearch(): Promise<DevResult | undefined> {
    const started = performance.now();
    const searching = new AbortController();
    this.searching = searching;
    try {
      const update = await this.exclusive(() => this.output.updateSearch(searching.signal));
      return update && devResult(started, true, [], [], false, update);
    } catch (error) {
      if (searching.signal.aborted) return undefined;
      throw error;
    } finally {
      if (this.searching === searching) this.searching = undefined;
    }
  }

  /** Stops the search data's update under way: a change came, which dates it (the session asks again after). */
  stopSearch(): void {
    this.searching?.abort();
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
    return { ...this.tools(), srcDir, cacheDir, signal: this.stopping.signal };
  }

  private assemble(scanned: ReferencedSite): { assembled: Site<PageRecord>; diagnostics: Diagnostic[] } {
    const site = new DiagnosticList();
    const assembled = siteOf(this.pages.loaded(), scanned, this.strict, site);
    site.items.push(...this.siteDiagnostics, ...this.pages.diagnostics());
    return { assembled, diagnostics: reported(site, scanned) };
  }
}
