import type { AnalyzedSite } from './analyze/analyze-site';
import { DiagnosticList, type Diagnostic } from './diagnostics';
import { BuildLock } from './output/build-lock';
import { outputSite } from './output/output-site';
import { PrerenderThreads } from './output/prerender-threads';
import {
  appBundles,
  BuildCacheIndex,
  makePages,
  PageHighlighter,
  readSite,
  reported,
  siteOf,
  TextStore,
  type AppBundles,
  type ReferencedSite,
} from './site-stages';
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
  /** Page threads (0: none); by default as many as the pages to make are enough to pay for. */
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
  /** Page files the page pass rendered; the others were made already and came from the render cache. */
  rendered: number;
  diagnostics: Diagnostic[];
  seconds: number;
}

/**
 * content/ → manifest/ + dist/, in its stages, each once: scan → analyze → site → output.
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
  const ofBuild: OfBuild = { prerendering: new PrerenderThreads(), cacheIndex: new BuildCacheIndex() };
  try {
    // Each version built with the site is a site of its own, built the same way (src/node/versions/), on
    // the same prerender threads and the render cache's index as the first read it.
    const buildSite: BuildSite = (folders, layer) => buildInLockedFolders({ ...options, ...folders }, layer, ofBuild);
    return await buildWithVersions(options, buildSite, olderOnly);
  } finally {
    await ofBuild.prerendering.stop();
    lock.release();
  }
}

/** What every site of one build shares: the sites of a build are its versions, built one after the other. */
interface OfBuild {
  prerendering: PrerenderThreads;
  cacheIndex: BuildCacheIndex;
}

async function buildInLockedFolders(
  options: BuildOptions,
  layer: SiteLayer,
  { prerendering, cacheIndex }: OfBuild,
): Promise<BuildResult> {
  const started = performance.now();
  const { contentDir, strict, log } = options;
  const diagnostics = new DiagnosticList(strict);
  // Fragments and markdown wait here, on disk, until the output stage writes them; the render cache keeps
  // them there. In the cache folder every version shares, which `layer.sharedCacheDir` names.
  const sharedCacheDir = layer.sharedCacheDir ?? options.cacheDir;
  const texts = new TextStore(sharedCacheDir);
  // What is still running when the build returns is awaited (or stopped) first, never left unheard.
  let scanned: ReferencedSite | undefined;
  let app: Promise<AppBundles> | undefined;
  let analyzed: AnalyzedSite | undefined;
  let saving: Promise<void> | undefined;
  let highlighter: PageHighlighter | undefined;
  const finish = (ok: boolean, pages: number): BuildResult => {
    const seconds = (performance.now() - started) / 1000;
    // A problem in a page made from an OpenAPI document is reported in the document.
    return { ok, pages, rendered: analyzed?.analyzed ?? 0, diagnostics: reported(diagnostics, scanned), seconds };
  };
  try {
    const scanning = readSite(contentDir, diagnostics, { ...options, settings: layer.settings });
    // Code blocks are highlighted as the page pass finds them; the highlight cache loads while the scan runs.
    const highlighting = PageHighlighter.load(sharedCacheDir);
    highlighting.catch(() => undefined);
    scanned = await scanning;
    if (!scanned) return finish(false, 0);
    highlighter = await highlighting;
    // The app's bundles do not depend on the content: they are read (or made, when src/ changed) meanwhile.
    app = appBundles(options.srcDir);
    app.catch(() => undefined);
    analyzed = await makePages(scanned, {
      ...options,
      highlighter,
      texts,
      diagnostics,
      ahead: layer.ahead,
      cacheIndex,
    });
    const rendered = siteOf(analyzed.pages, scanned, strict, diagnostics, layer.versions);
    // The caches keep the pages without errors, even of a build the site's problems fail.
    const { made, problems, ahead } = analyzed;
    saving = Promise.all([analyzed.cache.save(made, problems, ahead), highlighter.save()]).then(() => undefined);
    const ok = diagnostics.errors.length === 0;
    const textsVersion = analyzed.identity;
    const { prerenderThreads } = options;
    if (ok)
      await outputSite(
        { ...options, ...layer },
        {
          scanned,
          site: rendered,
          app: await app,
          textsVersion,
          prerenderThreads,
          prerendering,
          log,
          search: layer.search,
        },
      );
    return finish(ok, rendered.pages.length);
  } finally {
    await Promise.allSettled([saving, app, scanned?.history]);
    // shiki's highlighters are many a build (a language with one of its own): let go, not left to pile up
    // in a process that builds again (npm run dev, the bench).
    await highlighter?.dispose();
    texts.close();
  }
}
