import { analyzeSite, type AnalyzedSite } from './analyze/analyze-site';
import { TextStore } from './analyze/text-store';
import { DiagnosticList, type Diagnostic } from './diagnostics';
import { inSourceDocuments } from './openapi/api-reference';
import { appBundles, type AppBundles } from './output/app-bundles';
import { BuildLock } from './output/build-lock';
import { outputSite } from './output/output-site';
import { BuildHighlighting } from './render/highlight/highlight-blocks';
import { renderSite } from './render/render-pages';
import { withReferencePages, type ReferencedSite } from './openapi/reference-site';
import { scanSite } from './scan/scan-site';
import { assembleSite } from './site/assemble';
import { buildWithVersions, type BuildSite, type SiteLayer } from './versions/build-versions';

export interface BuildOptions {
  contentDir: string;
  manifestDir: string;
  outDir: string;
  strict: boolean;
  /** Where the highlight cache lives between builds (anywhere; the prerender bundle never goes there). */
  cacheDir: string;
  /** The project's `src/`, for the app's bundles (made once per state of it: output/app-bundles.ts). */
  srcDir: string;
  /** Highlight threads (0: none); by default as many as the tree is large enough to pay for. */
  highlightThreads?: number;
  /** Page-analysis threads (0: none); by default as many as the pages to analyze are enough to pay for. */
  analyzeThreads?: number;
  /** Prerender threads (0: none); by default as many as the site is large enough to pay for. */
  prerenderThreads?: number;
  log?: (line: string) => void;
  /** Wait for another build using the same folders to finish, rather than be refused (output/build-lock.ts). */
  waitForLock?: boolean;
}

export interface BuildResult {
  ok: boolean;
  pages: number;
  /** Page files the page pass rendered; the others were unchanged since the last build and came from its cache. */
  rendered: number;
  diagnostics: Diagnostic[];
  seconds: number;
}

/**
 * content/ → manifest/ + dist/, in five stages, each once: scan → analyze → site → render → output.
 * Every problem is collected and reported; the outputs are updated only when the build has no error.
 * Another build writing the same folders or cache meanwhile is refused (`BuildLockedError`).
 */
export function build(options: BuildOptions): Promise<BuildResult> {
  return buildLocked(options, false);
}

/**
 * Only the older versions `_site.yaml` builds with the site, each at its route in the outputs, the current
 * one left out: what `npm run dev` serves beside the current version it builds itself.
 */
export function buildOlderVersions(options: BuildOptions): Promise<BuildResult> {
  return buildLocked(options, true);
}

async function buildLocked(options: BuildOptions, olderOnly: boolean): Promise<BuildResult> {
  const { outDir, manifestDir, cacheDir, waitForLock, log } = options;
  const lock = await BuildLock.acquire([outDir, manifestDir, cacheDir], { wait: waitForLock, log });
  try {
    // Each version built with the site is a site of its own, built the same way (src/node/versions/).
    const buildSite: BuildSite = (folders, layer) => buildInLockedFolders({ ...options, ...folders }, layer);
    return await buildWithVersions(options, buildSite, olderOnly);
  } finally {
    lock.release();
  }
}

async function buildInLockedFolders(options: BuildOptions, layer: SiteLayer): Promise<BuildResult> {
  const started = performance.now();
  const { contentDir, strict, log } = options;
  const diagnostics = new DiagnosticList(strict);
  // Fragments and markdown wait here, on disk past a budget, until the output stage writes them.
  const texts = new TextStore(options.cacheDir);
  // What is still running when the build returns is awaited (or stopped) first, never left unheard.
  let scanned: ReferencedSite | undefined;
  let app: Promise<AppBundles> | undefined;
  let analyzed: AnalyzedSite | undefined;
  let highlighting: BuildHighlighting | undefined;
  let saving: Promise<void> | undefined;
  const finish = (ok: boolean, pages: number): BuildResult => {
    const seconds = (performance.now() - started) / 1000;
    // A problem in a page made from an OpenAPI document is reported in the document.
    const reported = inSourceDocuments(diagnostics, scanned?.generated ?? new Map());
    return { ok, pages, rendered: analyzed?.analyzed ?? 0, diagnostics: reported, seconds };
  };
  try {
    const scanning = scanSite(contentDir, diagnostics).then((read) => {
      const settings = read && layer.settings ? { ...read, config: layer.settings(read.config) } : read;
      return settings && withReferencePages(settings, diagnostics, options);
    });
    // Code blocks are highlighted as the page pass finds them, on threads for a large site; the highlight
    // cache loads while the scan runs.
    const pages = scanning.then((site) => site?.files.length ?? 0);
    highlighting = new BuildHighlighting(layer.highlightCacheDir ?? options.cacheDir, pages, options.highlightThreads);
    scanned = await scanning;
    if (!scanned) return finish(false, 0);
    // The app's bundles do not depend on the content: they are read (or made, when src/ changed) meanwhile.
    app = appBundles(options.srcDir);
    app.catch(() => undefined);
    analyzed = await analyzeSite(scanned, { ...options, highlighter: highlighting.highlighter, texts, diagnostics });
    const { config, configText, unmade } = scanned;
    const site = assembleSite(analyzed.pages, config, configText, strict, diagnostics, unmade, layer.versions);
    // A page's error or a broken link fails the build: code still being highlighted would only delay that.
    const failed = diagnostics.errors.length > 0;
    const code = failed ? highlighting.stopped() : highlighting.done(analyzed.reusedCode);
    const rendered = renderSite(analyzed.pages, site, await code, analyzed.cache);
    // The render cache keeps the pages without errors, even of a build the site's problems fail.
    saving = analyzed.cache.save(rendered.rendered, analyzed.problems);
    const ok = diagnostics.errors.length === 0;
    const textsVersion = analyzed.identity;
    const { prerenderThreads } = options;
    if (ok)
      await outputSite(
        { ...options, ...layer },
        { scanned, site: rendered.site, app: await app, textsVersion, prerenderThreads, log },
      );
    return finish(ok, rendered.site.pages.length);
  } finally {
    await Promise.allSettled([highlighting?.stopped(), saving, app, scanned?.history]);
    texts.close();
    analyzed?.cache.close();
  }
}
