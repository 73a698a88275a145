/**
 * Figures of large trees made of real pages (bench/copy-tree.ts: content/ and its copies): cold build,
 * a second build after one page changed (highlight cache warm), peak memory, and in Chromium what a
 * first visit of /docs/limits/ transfers, the first search (bytes and keystroke → results drawn) and a
 * click on a link into another section (click → new h1).
 */
import { appendFile, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Request } from 'playwright-core';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { armHeadingTimer, armSearchTimer, hydrated, newContext, readBench } from './browser';
import { buildPaths, buildSeries, type BuildPaths, type BuildSeries, type Workspace } from './builds';
import { copyFolder, copyTree } from './copy-tree';
import { KB, MB, type Figure } from './report';

export interface LargeTree {
  label: string;
  pages: number;
  brokenLinks?: boolean;
  /** Cold build and peak memory targets; LARGE_TARGETS' (those of 10,000 pages) by default. */
  coldMs?: number;
  peakBytes?: number;
}

export interface TreeBrowserFigures {
  /** Bytes on the wire (as the preview server compresses them) until the visit is idle. */
  firstVisitBytes: number;
  firstVisitFiles: number;
  /** The files the first search fetched, each gzipped (-9) on its own. */
  firstSearchBytes: number;
  /** The same requests as sent (body and headers; the preview server compresses with brotli). */
  firstSearchWireBytes: number;
  firstSearchFiles: number;
  firstSearchMs: number | null;
  otherSectionClickMs: number | null;
}

export interface TreeResults {
  pages: number;
  cold: BuildSeries;
  edited: BuildSeries;
  browser?: TreeBrowserFigures;
}

export const LARGE_TARGETS = {
  coldMs: 60_000,
  editedMs: 10_000,
  peakBytes: 1024 * MB,
  firstVisitBytes: 200 * KB,
  firstSearchBytes: 300 * KB,
  firstSearchMs: 150,
  clickMs: 50,
};

/** Where a large tree's content and outputs live in the workspace. */
export function largeTreePaths(ws: Workspace, tree: LargeTree): BuildPaths {
  const name = tree.label.replace(/\W+/g, '-');
  return { ...buildPaths(ws, name, path.join(ws.root, name, 'content')), strict: !tree.brokenLinks };
}

/** Copies, builds (cold, then again after one page changed) and measures one large tree. */
export async function measureLargeTree(ws: Workspace, tree: LargeTree, capMs: number): Promise<TreeResults> {
  const paths = largeTreePaths(ws, tree);
  const content = paths.content;
  const pages = await copyTree(content, tree.pages, { brokenLinks: tree.brokenLinks === true });
  const cold = await buildSeries(`${tree.label} cold`, 1, () => paths, capMs);
  const edited = await buildSeries(
    `${tree.label}, one page changed`,
    1,
    () => paths,
    capMs,
    // /limits/ of the first copy (content/ names its file limits/README.md).
    () => appendFile(path.join(content, copyFolder(1), 'limits/README.md'), '\nEdited by the benchmark.\n'),
  );
  const results: TreeResults = { pages, cold, edited };
  // The tree with broken links is browsed too: its pages are the same, and a reader meets its links as text.
  if (cold.runs.length > 0) results.browser = await measureTreeInBrowser(paths.out);
  return results;
}

async function measureTreeInBrowser(distDir: string): Promise<TreeBrowserFigures> {
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  try {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${base}/docs/limits/`);
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    const visit = await transferred(page, 0);

    // The first search: "/" opens the dialog, a word is typed at once. Its requests are taken from the
    // browser's network events, which include the search worker's (the page's resource timing does not).
    const searched: Request[] = [];
    const onRequest = (request: Request) => void searched.push(request);
    page.on('requestfinished', onRequest);
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.matches('.search-dialog input') ?? false);
    await armSearchTimer(page, 'w');
    await page.keyboard.type('webhook');
    const firstSearchMs = await readBench(page);
    // The top of the list is drawn first; the search is done when the whole list is counted.
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLInputElement>('.search-dialog input')?.value === 'webhook' &&
        /\d+ results?/.test(document.querySelector('.search-dialog [role="status"]')?.textContent ?? ''),
    );
    page.off('requestfinished', onRequest);
    const search = await searchDownload(distDir, searched);
    await page.keyboard.press('Escape');

    return {
      firstVisitBytes: visit.bytes,
      firstVisitFiles: visit.count,
      firstSearchBytes: search.gzipBytes,
      firstSearchWireBytes: search.wireBytes,
      firstSearchFiles: search.files,
      firstSearchMs,
      otherSectionClickMs: await clickIntoOtherSection(page),
    };
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}

/** Bytes on the wire of the document and of the resources from number `from` on, and how many there are. */
function transferred(page: Page, from: number): Promise<{ bytes: number; count: number }> {
  return page.evaluate((skip) => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const bytes = resources.slice(skip).reduce((n, r) => n + r.transferSize, skip === 0 ? (nav?.transferSize ?? 0) : 0);
    return { bytes, count: resources.length };
  }, from);
}

/**
 * What the first search downloaded: its files' size with gzip -9, and the bytes on the wire. The wire
 * figure alone would flatter a copied tree: brotli's window spans many copies of the same text, which a
 * site of distinct pages does not have.
 */
async function searchDownload(
  distDir: string,
  requests: Request[],
): Promise<{ gzipBytes: number; wireBytes: number; files: number }> {
  let gzipBytes = 0;
  let wireBytes = 0;
  const counted = new Set<string>();
  for (const request of requests) {
    const sizes = await request.sizes();
    // A file served from the browser's cache was not downloaded again.
    if (sizes.responseBodySize === 0 || counted.has(request.url())) continue;
    counted.add(request.url());
    wireBytes += sizes.responseBodySize + sizes.responseHeadersSize;
    const file = path.join(distDir, new URL(request.url()).pathname.replace(/^\/docs\//, ''));
    gzipBytes += gzipSync(await readFile(file), { level: 9 }).length;
  }
  return { gzipBytes, wireBytes, files: counted.size };
}

/** Opens the sidebar group of another section and times a click on its first page: click → new h1. */
async function clickIntoOtherSection(page: Page): Promise<number | null> {
  const group = page.locator('button.sidebar-fold', { hasText: /^Section 7$/ });
  if ((await group.count()) === 0) return null;
  await group.click();
  const link = page.locator('nav#sidebar section', { has: group }).locator('a[href]').nth(5);
  await link.waitFor();
  const title = (await link.textContent()) ?? '';
  await armHeadingTimer(page, title);
  await link.click();
  return readBench(page);
}

export function largeTreeFigures(tree: LargeTree, results: TreeResults): Figure[] {
  const section = `${tree.label} (${results.pages.toLocaleString('en')} pages)`;
  const figures: Figure[] = [];
  const build = (series: BuildSeries, what: string, max: number, peak: boolean) => {
    const run = series.runs[0];
    const why = series.error ?? (series.stopped ? `stopped after ${(series.stopped.capMs / 1000).toFixed(0)} s` : '');
    figures.push({
      section,
      name: `${what}: wall`,
      value: run?.wallMs ?? null,
      unit: 'ms',
      target: { max },
      note: why,
    });
    if (peak) {
      figures.push({
        section,
        name: `${what}: peak memory`,
        value: run?.maxRssBytes ?? null,
        unit: 'bytes',
        target: { max: tree.peakBytes ?? LARGE_TARGETS.peakBytes, inclusive: true },
      });
    }
  };
  build(results.cold, 'build, cold', tree.coldMs ?? LARGE_TARGETS.coldMs, true);
  build(results.edited, 'build, one page changed (cache warm)', LARGE_TARGETS.editedMs, true);
  const b = results.browser;
  if (!b) return figures;
  figures.push(
    {
      section,
      name: 'first visit of /docs/limits/: bytes transferred (HTML + JS + CSS + data, gzip)',
      value: b.firstVisitBytes,
      unit: 'bytes',
      target: { max: LARGE_TARGETS.firstVisitBytes },
      note: `${b.firstVisitFiles} files`,
    },
    {
      section,
      name: 'first search: bytes downloaded (its files, gzip -9)',
      value: b.firstSearchBytes,
      unit: 'bytes',
      target: { max: LARGE_TARGETS.firstSearchBytes, inclusive: true },
      note: `${b.firstSearchFiles} files; ${Math.round(b.firstSearchWireBytes / KB)} KB on the wire, where brotli folds the tree's copies together`,
    },
    {
      section,
      name: 'first search: keystroke → results drawn',
      value: b.firstSearchMs,
      unit: 'ms',
      target: { max: LARGE_TARGETS.firstSearchMs, inclusive: true },
    },
    {
      section,
      name: 'link into another section: click → new h1',
      value: b.otherSectionClickMs,
      unit: 'ms',
      target: { max: LARGE_TARGETS.clickMs },
    },
  );
  return figures;
}
