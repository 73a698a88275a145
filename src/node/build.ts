import path from 'node:path';
import { pageRecords } from './content/page-record';
import { lastCommitDates } from './content/page-history';
import { renderPages } from './content/render-pages';
import { scanContent } from './content/scan';
import { TextStore } from './content/text-store';
import { readSiteConfig } from './content/site-config';
import { DiagnosticList, type Diagnostic } from './diagnostics';
import { CodeBlocks } from './highlight/blocks';
import { highlightBlocks } from './highlight/highlight-blocks';
import { bundleAppCss, bundleClient, siteCss } from './output/bundle';
import { loadPrerender } from './output/prerender';
import { publishSite } from './output/publish';
import { progressLog } from './progress';
import { assembleSite } from './site/assemble';
import { splitForBrowser } from './site/browser-data';
import { createManifest } from './site/manifest';
import { buildSearchFiles } from './site/search-files';

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

/**
 * content/ → manifest/ + dist/, in five stages, each once: scan → page pass → highlight → site → output.
 * Every problem is collected and reported; the outputs are swapped in only when the build has no error.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const { contentDir, srcDir, strict, log } = options;
  const diagnostics = new DiagnosticList(strict);
  const finish = (ok: boolean, pages: number): BuildResult => ({
    ok,
    pages,
    diagnostics: diagnostics.sorted(),
    seconds: (performance.now() - started) / 1000,
  });
  // The code blocks are highlighted as the page pass finds them (on threads for a large site); the cache
  // loads while the scan runs, and the app's bundles, which do not depend on the content, are made by
  // esbuild meanwhile.
  const scanning = scanContent(contentDir, diagnostics);
  const blocks = new CodeBlocks();
  // Fragments and markdown wait here, on disk past a budget, until the output stage writes them.
  const texts = new TextStore(options.cacheDir);
  const stop = new AbortController();
  const cacheFile = path.join(options.cacheDir, 'highlight.json');
  const pages = scanning.then((found) => found.length);
  const threads = options.highlightThreads;
  const highlighting = highlightBlocks(blocks, { cacheFile, pages, threads, signal: stop.signal });
  // Each is awaited, or settled in `finally`: a failure is never left unheard, nor a thread running.
  const pending: Promise<unknown>[] = [highlighting];
  highlighting.catch(() => undefined);
  try {
    const [files, { config, configText }] = await Promise.all([scanning, readSiteConfig(contentDir, diagnostics)]);
    const bundles = Promise.all([bundleClient(srcDir), loadPrerender(srcDir), bundleAppCss(srcDir)]);
    const history = config.lastUpdated ? lastCommitDates(contentDir) : Promise.resolve(undefined);
    pending.push(bundles, history);
    for (const promise of [bundles, history]) promise.catch(() => undefined);
    const settings = { base: config.base, constants: config.constants, strict, embeds: config.embeds };
    const passing = renderPages(files, { settings, highlighter: blocks, texts, diagnostics, log });
    const drafts = await passing.finally(() => blocks.close());
    // A page with errors fails the build: its code would only delay the report of the site's problems.
    const failed = diagnostics.errors.length > 0;
    if (failed) stop.abort();
    const code = failed ? new Map<string, string>() : await highlighting;
    const pages = pageRecords(drafts, (html) => blocks.fill(html, code), texts);

    const assembled = assembleSite(pages, config, configText, strict, diagnostics, texts);
    if (diagnostics.errors.length > 0) return finish(false, assembled.pages.length);
    const search = buildSearchFiles(assembled.pages);
    const [client, renderRoute, appCss] = await bundles;
    const manifest = createManifest(config, assembled, search.entry, client, await history);

    const browserData = splitForBrowser(manifest);
    const css = await siteCss(appCss, assembled.pages);
    const onProgress = progressLog('prerendered', assembled.pages.length, log);
    const { pages: written } = assembled;
    await publishSite(options, {
      manifest,
      browserData,
      search,
      pages: written,
      client,
      css,
      renderRoute,
      onProgress,
    });
    return finish(true, written.length);
  } finally {
    blocks.close();
    await Promise.allSettled(pending);
    texts.close();
  }
}
