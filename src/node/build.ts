import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
import type { Manifest, SiteSettings } from '../shared/types';
import { FRAGMENT_FILE_PREFIX, toPageMeta, type PageSource } from './content/page-source';
import { renderPages, startHighlighting, type RenderedPages } from './content/render-pages';
import { editLinkOf, lastCommitDates } from './content/page-history';
import { scanContent } from './content/scan';
import { loadSiteConfig, SITE_CONFIG_FILE, type SiteConfig } from './content/site-config';
import { contentHash } from './content-hash';
import { DiagnosticList, type Diagnostic } from './diagnostics';
import { progressLog } from './progress';
import { HighlightCache } from './highlight/cache';
import { highlightCss } from './highlight/css';
import { bundleAppCss, bundleClient, bundlePrerender, siteStylesheet, type ClientAssets } from './output/bundle';
import { commit, discard, stage } from './output/swap';
import { prerenderUntil, writeDist, writeManifestFolder, type DistInput } from './output/write-site';
import { assembleSite, type AssembledSite } from './site/assemble';
import { splitForBrowser } from './site/browser-data';
import { buildSearchData } from './site/search-index';

export interface BuildOptions {
  contentDir: string;
  manifestDir: string;
  outDir: string;
  strict: boolean;
  /** Where the highlight cache lives between builds (anywhere; the prerender bundle never goes there). */
  cacheDir: string;
  /** The project's `src/`, for the client bundle. */
  srcDir: string;
  /** Highlight threads (0: none); by default as many as the tree is large enough to pay for. */
  highlightThreads?: number;
  log?: (line: string) => void;
}

export interface BuildResult {
  ok: boolean;
  pages: number;
  diagnostics: Diagnostic[];
  seconds: number;
}

// The stages below are the build's own; the dev server (src/node/dev) runs the same ones incrementally.

/** `_site.yaml`, parsed, and its text (for the line numbers of site-level problems). */
export async function readSiteConfig(
  contentDir: string,
  diagnostics: DiagnosticList,
): Promise<{ config: SiteConfig; configText: string }> {
  const config = await loadSiteConfig(contentDir, diagnostics);
  const configText = await readFile(path.join(contentDir, SITE_CONFIG_FILE), 'utf8').catch(() => '');
  return { config, configText };
}

/** The site-wide settings that ship in the manifest. */
export function siteSettings(config: SiteConfig): SiteSettings {
  return {
    title: config.title,
    description: config.description,
    base: config.base,
    siteUrl: config.siteUrl,
    lang: config.lang,
    versions: config.versions,
    ...(config.analyticsId ? { analyticsId: config.analyticsId } : {}),
    embeds: config.embeds,
    ...(config.nav.length > 0 ? { nav: config.nav } : {}),
  };
}

/** The manifest of an assembled site; its hash covers everything in it. */
export function createManifest(
  config: SiteConfig,
  assembled: AssembledSite,
  searchJson: string,
  client: ClientAssets,
  /** Each file's last commit date, when the site shows it (content/page-history.ts). */
  lastUpdated: ReadonlyMap<string, string> = new Map(),
): Manifest {
  const base = config.base;
  const unhashed: Omit<Manifest, 'hash'> = {
    site: siteSettings(config),
    sidebar: assembled.sidebar,
    redirects: assembled.redirects,
    search: `${base}assets/js/search.${contentHash(searchJson)}.json`,
    searchWorker: `${base}assets/js/${client.worker}`,
    pages: assembled.pages.map((page) => {
      const meta = toPageMeta(page, base);
      const date = lastUpdated.get(page.file.relativePath);
      return {
        ...meta,
        ...(date ? { lastUpdated: date } : {}),
        ...(config.editLink ? { editLink: editLinkOf(config.editLink.pattern, meta.relativePath) } : {}),
      };
    }),
  };
  return { hash: contentHash(JSON.stringify(unhashed)), ...unhashed };
}

/** The site's stylesheet: the app's CSS (see `bundleAppCss`) plus the code colours its fragments use. */
export function siteCss(appCss: string, pages: readonly PageSource[]): ReturnType<typeof siteStylesheet> {
  return siteStylesheet(appCss, highlightCss(pages.map((p) => p.html)));
}

/** Renders one route's app HTML with the prerender bundle (the same components the browser hydrates). */
export type RenderRoute = DistInput['renderRoute'];

/**
 * Bundles the app's renderer and runs it in this process. The bundle is evaluated as the CommonJS module it
 * is rather than imported: the loader `npm run build` runs under (tsx) transforms every imported file, and
 * for this one (a megabyte, React included) that took longer than prerendering the whole content tree.
 */
export async function loadPrerender(srcDir: string): Promise<RenderRoute> {
  const filename = path.join(path.resolve(srcDir), 'client/prerender.bundle.cjs');
  const code = await bundlePrerender(srcDir);
  const module = { exports: {} as { renderRoute?: RenderRoute } };
  const load = runInThisContext(`(function (exports, require, module) {${code}\n})`, { filename }) as (
    exports: object,
    require: NodeJS.Require,
    module: object,
  ) => void;
  load(module.exports, createRequire(filename), module);
  if (!module.exports.renderRoute) throw new Error('the prerender bundle does not export renderRoute');
  return module.exports.renderRoute;
}

/**
 * The pages' app HTML, rendered while their code is highlighted on other threads; the markers in it are
 * completed once that is done. It is rendered with a manifest whose hashes are not final yet: a route
 * whose HTML shows the manifest's hash or a fragment URL (the app only fetches those; it prints none) is
 * left out, to be rendered with the final manifest. Never rejects: when highlighting fails, so does the
 * build.
 */
async function prerenderEarly(
  rendered: RenderedPages,
  provisional: Manifest,
  renderRoute: RenderRoute,
): Promise<Map<string, string>> {
  const early = await prerenderUntil(rendered.highlighted, provisional, rendered.pages, renderRoute);
  const completed = new Map<string, string>();
  const highlighted = await rendered.highlighted.then(
    () => true,
    () => false,
  );
  if (!highlighted) return completed;
  const fragmentUrls = `${provisional.site.base}assets/js/${FRAGMENT_FILE_PREFIX}`;
  for (const [route, html] of early) {
    if (html.includes(provisional.hash) || html.includes(fragmentUrls)) continue;
    completed.set(route, rendered.complete(html));
  }
  return completed;
}

/**
 * How much bytecode a function runs before V8 considers optimising it: four times V8's default (66 KB in
 * the V8 of Node 20). A build is a short batch job, and with the default, a cold build of this
 * repository's content spent about a second of CPU in the optimising compiler's background threads,
 * mostly on functions that had little left to run, on the two cores the build is short of. With this,
 * the hot loops (the tokenizer, the markdown lexer) are still optimised, a little later. Measured in
 * alternating cold builds: content/ 1.61 s against 1.72 s wall, 2.38 s against 2.63 s CPU; the
 * 2,000-page tree unchanged (eight times the default made that one slower). The flag is process-wide
 * and read as functions run, so setting it when a build starts covers its threads too.
 */
const INTERRUPT_BUDGET_FLAG = '--interrupt-budget=270336';

/**
 * content/ → manifest/ + dist/. Every problem is collected and reported; the outputs are written to
 * staging folders and swapped in only when the build has no error.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  setFlagsFromString(INTERRUPT_BUDGET_FLAG);
  const started = performance.now();
  const log = options.log ?? (() => {});
  const diagnostics = new DiagnosticList(options.strict);
  const finish = (ok: boolean, pages: number): BuildResult => ({
    ok,
    pages,
    diagnostics: diagnostics.sorted(),
    seconds: (performance.now() - started) / 1000,
  });

  // The highlight threads start first, as soon as the tree's size is known: they are the longest part of
  // a cold build. The app bundles do not depend on the content: esbuild builds them in its own process
  // while the pages render. Both are settled before any return, so no failure is left unheard.
  const scanned = Promise.all([
    scanContent(options.contentDir, diagnostics),
    HighlightCache.load(path.join(options.cacheDir, 'highlight.json')),
  ]);
  const starting = scanned.then(([files, cache]) =>
    startHighlighting(files.length, {
      cache,
      srcDir: options.srcDir,
      ...(options.highlightThreads === undefined ? {} : { threads: options.highlightThreads }),
    }),
  );
  const bundles = scanned.then(() =>
    Promise.all([bundleClient(options.srcDir), loadPrerender(options.srcDir), bundleAppCss(options.srcDir)]),
  );
  const siteRead = readSiteConfig(options.contentDir, diagnostics);
  const history = siteRead.then(({ config }) =>
    config.lastUpdated ? lastCommitDates(options.contentDir) : new Map<string, string>(),
  );
  for (const settling of [starting, bundles, history]) settling.catch(() => undefined);
  let rendered: RenderedPages | undefined;
  let early: Promise<Map<string, string>> | undefined;
  try {
    const [{ config, configText }, [files, cache]] = await Promise.all([siteRead, scanned]);
    rendered = await renderPages(files, await starting, {
      settings: { base: config.base, constants: config.constants, strict: options.strict, embeds: config.embeds },
      diagnostics,
      log,
    });
    // The site checks and the search index need the records only: they run while code is highlighted.
    const assembled = assembleSite(rendered.pages, config, configText, options.strict, diagnostics);
    if (diagnostics.errors.length > 0) {
      // Nothing is written: the code still waiting to be highlighted would only delay the report.
      rendered.cancel();
      return finish(false, assembled.pages.length);
    }
    const dates = await history;
    const searchJson = JSON.stringify(buildSearchData(assembled.pages));
    // The sections' text is in the search data now and nothing else reads it: on a large site it is much of
    // what the build holds while it prerenders.
    for (const page of assembled.pages) page.analysis.sections = [];
    const [client, renderRoute, appCss] = await bundles;
    early = rendered.coreToSpare
      ? prerenderEarly(rendered, createManifest(config, assembled, searchJson, client, dates), renderRoute)
      : undefined;
    await rendered.highlighted;
    const manifest = createManifest(config, assembled, searchJson, client, dates);
    const prerendered = await early;
    const browserData = splitForBrowser(manifest);
    const css = await siteCss(appCss, assembled.pages);

    const folders = [await stage(options.manifestDir), await stage(options.outDir)];
    try {
      const [manifestFolder, distFolder] = folders;
      if (!manifestFolder || !distFolder) throw new Error('staging folders missing');
      // Both folders and the highlight cache (only what this build used) at once, each to its end even
      // when another fails, so nothing is still being written when the staging folders are discarded.
      const written = await Promise.allSettled([
        cache.save(),
        writeManifestFolder(manifestFolder.staging, manifest, assembled.pages, searchJson),
        writeDist(distFolder.staging, {
          manifest,
          browserData,
          searchJson,
          pages: assembled.pages,
          client,
          css,
          renderRoute,
          ...(prerendered ? { prerendered } : {}),
          onProgress: progressLog('prerendered', assembled.pages.length, log),
        }),
      ]);
      for (const result of written) if (result.status === 'rejected') throw result.reason;
      await commit(folders);
    } catch (error) {
      await discard(folders);
      throw error;
    }
    return finish(true, assembled.pages.length);
  } finally {
    // Once the pages are rendered, their highlighting ends the threads; before that, they are ended here.
    const highlighting = rendered?.highlighted ?? starting.then((started) => started.pool?.stop());
    await Promise.allSettled([bundles, highlighting, early]);
  }
}
