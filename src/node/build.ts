import path from 'node:path';
import { pageRecords, type PageSource } from './analyze/page-record';
import { lastCommitDates } from './scan/page-history';
import { RenderCache, renderIdentity, type RenderedPage } from './analyze/render-cache';
import { renderPages } from './analyze/analyze-pages';
import { scanContent } from './scan/scan';
import { TextStore } from './analyze/text-store';
import { readSiteConfig } from './scan/site-config';
import { DiagnosticList, type Diagnostic } from './diagnostics';
import { CodeBlocks } from './render/highlight/blocks';
import { codeColours } from './render/highlight/css';
import { highlightBlocks } from './render/highlight/highlight-blocks';
import { appBundles } from './output/app-bundles';
import { BuildLock } from './output/build-lock';
import { siteCss } from './output/bundle';
import { publishSite } from './output/publish';
import { progressLog } from './progress';
import { assembleSite } from './site/assemble';
import { splitForBrowser } from './output/browser-data';
import { createManifest } from './output/manifest';
import { buildSearchFiles } from './site/search-files';

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
 * content/ → manifest/ + dist/, in five stages, each once: scan → page pass → highlight → site → output.
 * Every problem is collected and reported; the outputs are updated only when the build has no error.
 * Another build writing the same folders or cache meanwhile is refused (`BuildLockedError`).
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const { outDir, manifestDir, cacheDir, waitForLock, log } = options;
  const lock = await BuildLock.acquire([outDir, manifestDir, cacheDir], { wait: waitForLock, log });
  try {
    return await buildInLockedFolders(options);
  } finally {
    lock.release();
  }
}

async function buildInLockedFolders(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const { contentDir, srcDir, strict, log } = options;
  const diagnostics = new DiagnosticList(strict);
  let rendered = 0;
  const finish = (ok: boolean, pages: number): BuildResult => ({
    ok,
    pages,
    rendered,
    diagnostics: diagnostics.sorted(),
    seconds: (performance.now() - started) / 1000,
  });
  // The code blocks are highlighted as the page pass finds them (on threads for a large site); the cache
  // loads while the scan runs, and the app's bundles, which do not depend on the content, are read (or made,
  // when src/ changed since) meanwhile.
  const scanning = scanContent(contentDir, diagnostics);
  const blocks = new CodeBlocks();
  // Fragments and markdown wait here, on disk past a budget, until the output stage writes them.
  const texts = new TextStore(options.cacheDir);
  const stop = new AbortController();
  const cacheFile = path.join(options.cacheDir, 'highlight.json');
  const configured = readSiteConfig(contentDir, diagnostics);
  const settingsOf = ({ config }: Awaited<typeof configured>) => ({
    base: config.base,
    constants: config.constants,
    strict,
    embeds: config.embeds,
  });
  // The pages unchanged since the last build come from its cache; the rest go through the page pass.
  const caching = Promise.all([scanning, configured]).then(async ([found, site]) => {
    const identity = renderIdentity(srcDir, contentDir, settingsOf(site));
    const cache = await RenderCache.open(path.join(options.cacheDir, 'pages'), identity);
    return { cache, identity, ...cache.reuse(found) };
  });
  // Threads are chosen by the site's size; on a warm build they start only for code the cache lacks.
  const pages = scanning.then((found) => found.length);
  const threads = options.highlightThreads;
  const keep = caching.then(
    ({ code }) => code,
    () => [],
  );
  const highlighting = highlightBlocks(blocks, { cacheFile, pages, threads, keep, signal: stop.signal });
  // Each is awaited, or settled in `finally`: a failure is never left unheard, nor a thread running.
  const pending: Promise<unknown>[] = [highlighting, caching];
  for (const promise of pending) promise.catch(() => undefined);
  try {
    const [files, site] = await Promise.all([scanning, configured]);
    // Every page is rendered with the settings: with the file wrong, their problems would only echo it.
    if (!site.valid) return finish(false, 0);
    const { config, configText } = site;
    const bundles = appBundles(srcDir);
    const history = config.lastUpdated ? lastCommitDates(contentDir) : Promise.resolve(undefined);
    pending.push(bundles, history);
    for (const promise of [bundles, history]) promise.catch(() => undefined);
    const reuse = await caching;
    rendered = reuse.render.length;
    if (reuse.reused.length > 0)
      log?.(`${reuse.reused.length} of ${files.length} pages unchanged since the last build`);
    // The unchanged pages' problems, as the page pass reported them when it rendered them.
    diagnostics.items.push(...reuse.problems);
    const problemsBefore = diagnostics.items.length;
    const settings = settingsOf(site);
    const passing = renderPages(reuse.render, { settings, highlighter: blocks, texts, diagnostics, log });
    const drafts = await passing.finally(() => blocks.close());
    // A page with errors fails the build: its code would only delay the report of the site's problems.
    const failed = diagnostics.errors.length > 0;
    if (failed) stop.abort();
    const code = failed ? new Map<string, string>() : await highlighting;
    const codeOf = new Map<string, string[]>();
    const renderedPages = pageRecords(
      drafts,
      (html, draft) => {
        codeOf.set(draft.file.relativePath, blocks.keysIn(html));
        const filled = blocks.fill(html, code);
        return { html: filled, codeColours: codeColours(filled) };
      },
      texts,
    );
    // Each page is kept with the problems the page pass reported in its file, to report them again.
    const cached: RenderedPage[] = renderedPages.map((page) => ({
      page,
      code: codeOf.get(page.file.relativePath) ?? [],
    }));
    const saving = reuse.cache.save(cached, diagnostics.items.slice(problemsBefore));
    pending.push(saving);
    const pages = inScanOrder(files, reuse.reused, renderedPages);

    const assembled = assembleSite(pages, config, configText, strict, diagnostics, texts);
    if (diagnostics.errors.length > 0) return finish(false, assembled.pages.length);
    const search = buildSearchFiles(assembled.pages);
    const { client, prerender, appCss } = await bundles;
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
      renderRoute: prerender.renderRoute,
      versions: { texts: reuse.identity, documents: prerender.version },
      onProgress,
    });
    await saving;
    return finish(true, written.length);
  } finally {
    blocks.close();
    await Promise.allSettled(pending);
    texts.close();
    (await caching.catch(() => undefined))?.cache.close();
  }
}

/** The pages of the scan, reused or rendered, in the scan's order (which is the site's page order). */
function inScanOrder(files: readonly { relativePath: string }[], ...lists: PageSource[][]): PageSource[] {
  const byFile = new Map(lists.flat().map((page) => [page.file.relativePath, page]));
  return files.flatMap((file) => byFile.get(file.relativePath) ?? []);
}
