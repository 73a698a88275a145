import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Manifest, SiteSettings } from '../shared/types';
import { loadPage, toPageMeta, type PageSource, type SiteContext } from './content/page-source';
import { scanContent, type ContentFile } from './content/scan';
import { loadSiteConfig, SITE_CONFIG_FILE, type SiteConfig } from './content/site-config';
import { DiagnosticList, type Diagnostic } from './diagnostics';
import { CodeHighlighter, highlightCss } from './markdown/highlight';
import { bundleClient, bundleCss, bundlePrerender, type ClientAssets } from './output/bundle';
import { commit, discard, stage } from './output/swap';
import { contentHash, writeDist, writeManifestFolder, type DistInput } from './output/write-site';
import { assembleSite, type AssembledSite } from './site/assemble';
import { buildSearchData } from './site/search-index';

let buildCount = 0;

export interface BuildOptions {
  contentDir: string;
  manifestDir: string;
  outDir: string;
  strict: boolean;
  /** Where the highlight cache lives between builds (anywhere; the prerender bundle never goes there). */
  cacheDir: string;
  /** The project's `src/`, for the client bundle. */
  srcDir: string;
  log?: (line: string) => void;
}

export interface BuildResult {
  ok: boolean;
  pages: number;
  diagnostics: Diagnostic[];
  seconds: number;
}

/** Renders one route's app HTML with the prerender bundle (the same components the browser hydrates). */
export type RenderRoute = DistInput['renderRoute'];

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

/** Renders every page file, 64 at a time; files with errors are left out (their problems are reported). */
export async function loadPages(
  files: ContentFile[],
  site: SiteContext,
  log: (line: string) => void = () => {},
): Promise<PageSource[]> {
  const loaded: PageSource[] = [];
  for (let i = 0; i < files.length; i += 64) {
    const batch = await Promise.all(files.slice(i, i + 64).map((file) => loadPage(file, site)));
    for (const page of batch) if (page) loaded.push(page);
    if (files.length > 300 && (i + 64) % 512 === 0)
      log(`  rendered ${Math.min(i + 64, files.length)}/${files.length} pages`);
  }
  return loaded;
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
  };
}

/** The manifest of an assembled site; its hash covers everything in it. */
export function createManifest(
  config: SiteConfig,
  assembled: AssembledSite,
  searchJson: string,
  client: ClientAssets,
): Manifest {
  const base = config.base;
  const unhashed: Omit<Manifest, 'hash'> = {
    site: siteSettings(config),
    sidebar: assembled.sidebar,
    redirects: assembled.redirects,
    search: `${base}assets/js/search.${contentHash(searchJson)}.json`,
    searchWorker: `${base}assets/js/${client.worker}`,
    pages: assembled.pages.map((page) => toPageMeta(page, base)),
  };
  return { hash: contentHash(JSON.stringify(unhashed)), ...unhashed };
}

/** The site's stylesheet: the app's CSS plus the code colours its fragments use. */
export function siteCss(srcDir: string, pages: readonly PageSource[]): ReturnType<typeof bundleCss> {
  return bundleCss(srcDir, highlightCss(pages.map((p) => p.html)));
}

/**
 * Bundles the prerender entry and imports its renderer. The bundle leaves its packages to Node, which finds
 * them from the file's own folder, so it is written under the project's `node_modules/.cache/` whatever
 * cache folder the build was given (`_cacheDir`, still passed by the dev builder, is not used). One file per
 * call, so builds running side by side never import each other's; it is removed even when the import fails.
 */
export async function loadPrerender(srcDir: string): Promise<RenderRoute> {
  const prerenderFile = path.join(
    path.dirname(path.resolve(srcDir)),
    'node_modules/.cache/docs-prerender',
    `prerender.${process.pid}.${++buildCount}.mjs`,
  );
  try {
    await bundlePrerender(srcDir, prerenderFile);
    const { renderRoute } = (await import(pathToFileURL(prerenderFile).href)) as { renderRoute: RenderRoute };
    return renderRoute;
  } finally {
    await rm(prerenderFile, { force: true });
  }
}

/**
 * content/ → manifest/ + dist/. Every problem is collected and reported; the outputs are written to
 * staging folders and swapped in only when the build has no error.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const diagnostics = new DiagnosticList();
  const finish = (ok: boolean, pages: number): BuildResult => ({
    ok,
    pages,
    diagnostics: diagnostics.sorted(),
    seconds: (performance.now() - started) / 1000,
  });

  // The app bundles do not depend on the content: esbuild builds them in its own process while this one
  // renders the pages, which is most of a cold build (syntax highlighting).
  const bundles = Promise.all([bundleClient(options.srcDir), loadPrerender(options.srcDir)]);
  // Settled before any return, so a content error never leaves a bundle half-written or a rejection unheard.
  const settledBundles = bundles.then(
    () => undefined,
    () => undefined,
  );
  const { config, configText } = await readSiteConfig(options.contentDir, diagnostics);
  const [files, highlighter] = await Promise.all([
    scanContent(options.contentDir, diagnostics),
    CodeHighlighter.create(path.join(options.cacheDir, 'highlight.json')),
  ]);
  const site = { base: config.base, constants: config.constants, highlighter, strict: options.strict, diagnostics };
  const loaded = await loadPages(files, site, log);
  const assembled = assembleSite(loaded, config, configText, options.strict, diagnostics);
  if (diagnostics.errors.length > 0) {
    await settledBundles;
    return finish(false, assembled.pages.length);
  }

  const searchData = buildSearchData(assembled.pages);
  const searchJson = JSON.stringify(searchData);
  const [client, renderRoute] = await bundles;
  const manifest = createManifest(config, assembled, searchJson, client);
  const manifestJson = JSON.stringify(manifest);
  const css = await siteCss(options.srcDir, assembled.pages);

  const folders = [await stage(options.manifestDir), await stage(options.outDir)];
  try {
    const [manifestFolder, distFolder] = folders;
    if (!manifestFolder || !distFolder) throw new Error('staging folders missing');
    await writeManifestFolder(manifestFolder.staging, manifest, assembled.pages, searchData);
    await writeDist(distFolder.staging, {
      manifest,
      manifestJson,
      searchJson,
      pages: assembled.pages,
      client,
      css,
      renderRoute,
      onProgress: (done, total) => total > 300 && done % 500 === 0 && log(`  prerendered ${done}/${total} pages`),
    });
    await commit(folders);
  } catch (error) {
    await discard(folders);
    throw error;
  }
  await highlighter.save();
  return finish(true, assembled.pages.length);
}
