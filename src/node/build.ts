import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Manifest, SiteSettings } from '../shared/types';
import { loadPage, toPageMeta, type PageSource } from './content/page-source';
import { scanContent } from './content/scan';
import { loadSiteConfig, SITE_CONFIG_FILE } from './content/site-config';
import { DiagnosticList, type Diagnostic } from './diagnostics';
import { CodeHighlighter, highlightCss } from './markdown/highlight';
import { bundleClient, bundleCss, bundlePrerender } from './output/bundle';
import { commit, discard, stage } from './output/swap';
import { contentHash, writeDist, writeManifestFolder } from './output/write-site';
import { assembleSite } from './site/assemble';
import { buildSearchData } from './site/search-index';

let buildCount = 0;

export interface BuildOptions {
  contentDir: string;
  manifestDir: string;
  outDir: string;
  strict: boolean;
  /** Where the highlight cache and the prerender bundle live between builds. */
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

  const config = await loadSiteConfig(options.contentDir, diagnostics);
  const configText = await readFile(path.join(options.contentDir, SITE_CONFIG_FILE), 'utf8').catch(() => '');
  const [files, highlighter] = await Promise.all([
    scanContent(options.contentDir, diagnostics),
    CodeHighlighter.create(path.join(options.cacheDir, 'highlight.json')),
  ]);
  const site = { base: config.base, constants: config.constants, highlighter, strict: options.strict, diagnostics };
  const loaded: PageSource[] = [];
  for (let i = 0; i < files.length; i += 64) {
    const batch = await Promise.all(files.slice(i, i + 64).map((file) => loadPage(file, site)));
    for (const page of batch) if (page) loaded.push(page);
    if (files.length > 300 && (i + 64) % 512 === 0)
      log(`  rendered ${Math.min(i + 64, files.length)}/${files.length} pages`);
  }
  const assembled = assembleSite(loaded, config, configText, options.strict, diagnostics);
  if (diagnostics.errors.length > 0) return finish(false, assembled.pages.length);

  const settings: SiteSettings = {
    title: config.title,
    description: config.description,
    base: config.base,
    siteUrl: config.siteUrl,
    lang: config.lang,
    versions: config.versions,
    ...(config.analyticsId ? { analyticsId: config.analyticsId } : {}),
  };
  const searchData = buildSearchData(assembled.pages);
  const searchJson = JSON.stringify(searchData);
  // One prerender bundle per build, so builds running side by side never import each other's file.
  const prerenderFile = path.join(options.cacheDir, `prerender.${process.pid}.${++buildCount}.mjs`);
  const [client] = await Promise.all([bundleClient(options.srcDir), bundlePrerender(options.srcDir, prerenderFile)]);
  const base = config.base;
  const unhashed: Omit<Manifest, 'hash'> = {
    site: settings,
    sidebar: assembled.sidebar,
    redirects: assembled.redirects,
    search: `${base}assets/js/search.${contentHash(searchJson)}.json`,
    searchWorker: `${base}assets/js/${client.worker}`,
    pages: assembled.pages.map((page) => toPageMeta(page, base)),
  };
  const manifest: Manifest = { hash: contentHash(JSON.stringify(unhashed)), ...unhashed };
  const manifestJson = JSON.stringify(manifest);
  const css = await bundleCss(options.srcDir, highlightCss(assembled.pages.map((p) => p.html)));
  const { renderRoute } = (await import(pathToFileURL(prerenderFile).href)) as {
    renderRoute: Parameters<typeof writeDist>[1]['renderRoute'];
  };
  await rm(prerenderFile, { force: true });

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
