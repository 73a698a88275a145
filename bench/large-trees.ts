/**
 * Figures of large trees, each made of copies of one tree: `content/` (bench/copy-tree.ts) or docs nobody
 * here wrote (bench/real-tree.ts). For each: a cold build from nothing compiled (what a writer's first
 * `npm run build` does), a second build after one page changed (cache warm), peak memory, and in
 * Chromium what a first visit of one page downloads, a few first searches (bytes, requests and keystroke
 * → results drawn), warm queries in the search worker and, where the tree has one, a click on a link into
 * another section (click → new h1).
 */
import { appendFile, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { armHeadingTimer, armSearchTimer, clicksInNewTab, hydrated, newContext, readBench } from './browser';
import { clickFigures, type ClickTimes } from './clicks';
import {
  buildPaths,
  buildSeries,
  compileFromNothing,
  median,
  type BuildPaths,
  type BuildSeries,
  type CompileMeasurement,
  type Workspace,
} from './builds';
import { copyFolder, copyTree } from './copy-tree';
import { KB, MB, type Figure } from './report';
import { measureInWorker, QUERIES, type LatencyResult } from './search';

/** What a large tree is copied from, and what the bench does on it. */
export interface TreeSource {
  /** Writes the tree into `dir` (not there yet); returns its page count and what it is made of. */
  write(dir: string, pages: number, brokenLinks: boolean): Promise<{ pages: number; note?: string }>;
  /** The page the first visit opens, as a route under /docs/ ("limits/"), and its file to edit in a copy. */
  route: string;
  edit: string;
  /** The first searches: each typed into a fresh tab whose search has loaded nothing yet. */
  queries: string[];
  /** The queries timed in the search worker once its data is loaded (warm). */
  warmQueries: string[];
  /** The sidebar group whose page the "link into another section" click opens, when the tree has one. */
  otherSection?: string;
}

export interface LargeTree {
  label: string;
  pages: number;
  source: TreeSource;
  brokenLinks?: boolean;
  /** Cold build and peak memory targets; LARGE_TARGETS' (those of 10,000 pages) by default. */
  coldMs?: number;
  peakBytes?: number;
}

export interface FirstSearch {
  query: string;
  ms: number | null;
  /** The files it fetched, each gzipped (-9) on its own. */
  gzipBytes: number;
  /** The same requests as sent (body and headers; the preview server compresses with brotli). */
  wireBytes: number;
  files: number;
}

export interface TreeBrowserFigures {
  route: string;
  /** Bytes on the wire (as the preview server compresses them) until the visit is idle. */
  firstVisitBytes: number;
  /** The same files, each gzipped (-9) on its own, and the largest of them. */
  firstVisitGzipBytes: number;
  firstVisitFiles: number;
  largestFile: { file: string; gzipBytes: number };
  searches: FirstSearch[];
  otherSectionClickMs: number | null;
  /** Sidebar clicks in a row from the page just taken over (bench/clicks.ts). */
  clicks: ClickTimes;
}

export interface TreeResults {
  pages: number;
  /** What the tree is made of (copies, broken links). */
  note?: string;
  /** `npm run compile` with nothing compiled yet, before the cold build: a writer's first `npm run build`. */
  compile: CompileMeasurement;
  cold: BuildSeries;
  edited: BuildSeries;
  browser?: TreeBrowserFigures;
  warm?: LatencyResult;
  /** Why the browser or the warm search could not be measured. */
  browserError?: string;
}

export const LARGE_TARGETS = {
  coldMs: 60_000,
  editedMs: 10_000,
  peakBytes: 1024 * MB,
  firstVisitBytes: 250 * KB,
  largestFileBytes: 100 * KB,
  firstSearchBytes: 300 * KB,
  firstSearchMs: 150,
  warmQueryMs: 16,
  clickMs: 50,
};

/** Where a large tree's content and outputs live in the workspace. */
export function largeTreePaths(ws: Workspace, tree: LargeTree): BuildPaths {
  const name = tree.label.replace(/\W+/g, '-');
  return { ...buildPaths(ws, name, path.join(ws.root, name, 'content')), strict: !tree.brokenLinks };
}

/** copies of content/ (bench/copy-tree.ts), visited at /docs/limits/. */
export const CONTENT_SOURCE: TreeSource = {
  write: async (dir, pages, brokenLinks) => ({ pages: await copyTree(dir, pages, { brokenLinks }) }),
  route: 'limits/',
  // /limits/ of the first copy (content/ names its file limits/README.md).
  edit: path.join(copyFolder(1), 'limits/README.md'),
  queries: QUERIES.slice(0, 5),
  warmQueries: QUERIES,
  otherSection: 'Section 7',
};

/**
 * Copies, builds (cold from nothing compiled, then again after one page changed) and measures one large
 * tree.
 */
export async function measureLargeTree(ws: Workspace, tree: LargeTree, capMs: number): Promise<TreeResults> {
  const paths = largeTreePaths(ws, tree);
  const content = paths.content;
  const written = await tree.source.write(content, tree.pages, tree.brokenLinks === true);
  const compile = await compileFromNothing(capMs);
  const cold = await buildSeries(`${tree.label} cold`, 1, () => paths, capMs);
  const editedLabel = `${tree.label}, one page changed`;
  // Without the cold build's cache, a second build would be another cold one.
  const edited: BuildSeries =
    cold.runs.length === 0
      ? { label: editedLabel, runs: [], error: 'not measured: the cold build did not finish' }
      : await buildSeries(
          editedLabel,
          1,
          () => paths,
          capMs,
          () => appendFile(path.join(content, tree.source.edit), '\nEdited by the benchmark.\n'),
        );
  const results: TreeResults = { pages: written.pages, compile, cold, edited };
  if (written.note) results.note = written.note;
  // The tree with broken links is browsed too: its pages are the same, and a reader meets its links as text.
  if (cold.runs.length > 0) {
    try {
      results.browser = await measureTreeInBrowser(paths.out, tree.source);
      results.warm = await measureInWorker(paths.out, tree.source.warmQueries);
    } catch (error) {
      results.browserError = error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
  }
  return results;
}

/** The file of dist/ a URL of the site names (a route's is its index.html). */
function distFile(distDir: string, url: string): string {
  const pathname = decodeURIComponent(new URL(url).pathname).replace(/^\/docs\//, '');
  return pathname === '' || pathname.endsWith('/')
    ? path.join(distDir, pathname, 'index.html')
    : path.join(distDir, pathname);
}

/** Sidebar clicks timed in a row right after a load, as on content/ (bench/browser.ts). */
const CLICKS_AFTER_LOAD = 10;

async function measureTreeInBrowser(distDir: string, source: TreeSource): Promise<TreeBrowserFigures> {
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const url = `${base}/docs/${source.route}`;
  try {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(url);
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    const visit = await transferred(page, 0);
    const sized = await Promise.all(
      [url, ...visit.urls].map(async (u) => ({
        file: path.relative(distDir, distFile(distDir, u)),
        gzipBytes: gzipSync(await readFile(distFile(distDir, u)), { level: 9 }).length,
      })),
    );
    const largestFile = sized.reduce((a, b) => (b.gzipBytes > a.gzipBytes ? b : a));
    const otherSectionClickMs = source.otherSection ? await clickIntoOtherSection(page, source.otherSection) : null;
    await context.close();
    const clicks = await clicksInNewTab(browser, url, distDir, CLICKS_AFTER_LOAD, []);

    // Each first search in a tab of its own: its search has loaded nothing yet.
    const searches: FirstSearch[] = [];
    for (const query of source.queries) searches.push(await firstSearch(browser, url, distDir, query));
    return {
      route: source.route,
      firstVisitBytes: visit.bytes,
      firstVisitGzipBytes: sized.reduce((n, f) => n + f.gzipBytes, 0),
      firstVisitFiles: sized.length,
      largestFile,
      searches,
      otherSectionClickMs,
      clicks,
    };
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}

/**
 * "/" opens the dialog, the query is typed at once; the time is from the keydown of its first letter to
 * the first result drawn. Its requests are taken from the browser's network events, which include the
 * search worker's (the page's resource timing does not), until the whole list is counted.
 */
export async function firstSearch(browser: Browser, url: string, distDir: string, query: string): Promise<FirstSearch> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(url);
    await hydrated(page);
    const searched: Request[] = [];
    page.on('requestfinished', (request) => void searched.push(request));
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.matches('.search-dialog input') ?? false);
    await armSearchTimer(page, query.charAt(0));
    await page.keyboard.type(query);
    const ms = await readBench(page);
    // The top of the list is drawn first; the search is done when the whole list is counted.
    await page
      .waitForFunction(
        (q) =>
          document.querySelector<HTMLInputElement>('.search-dialog input')?.value === q &&
          /\d+ results?|no results/i.test(document.querySelector('.search-dialog [role="status"]')?.textContent ?? ''),
        query,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    const download = await searchDownload(distDir, searched);
    return { query, ms, ...download };
  } finally {
    await context.close();
  }
}

/** Bytes on the wire of the document and of the resources from number `from` on, and their URLs. */
function transferred(page: Page, from: number): Promise<{ bytes: number; urls: string[] }> {
  return page.evaluate((skip) => {
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).slice(skip);
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const bytes = resources.reduce((n, r) => n + r.transferSize, skip === 0 ? (nav?.transferSize ?? 0) : 0);
    return { bytes, urls: [...new Set(resources.map((r) => r.name))] };
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

/** Opens the sidebar group `name` and times a click on one of its pages: click → new h1. */
async function clickIntoOtherSection(page: Page, name: string): Promise<number | null> {
  const group = page.locator('button.sidebar-fold', { hasText: new RegExp(`^${name}$`) });
  if ((await group.count()) === 0) return null;
  await group.click();
  const link = page.locator('nav#sidebar section', { has: group }).locator('a[href]').nth(5);
  await link.waitFor();
  const title = (await link.textContent()) ?? '';
  await armHeadingTimer(page, title);
  await link.click();
  return readBench(page);
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const ms = (value: number | null) => (value === null ? 'none drawn' : `${Math.round(value)} ms`);

/**
 * A large tree's figures. Their names are the same for every tree, so that the trees of one size can be
 * set side by side (bench/report.ts formatComparison); what differs (the page visited) is in the notes.
 */
export function largeTreeFigures(tree: LargeTree, results: TreeResults): Figure[] {
  const section = `${tree.label} (${results.pages.toLocaleString('en')} pages)`;
  const figures: Figure[] = [];
  const stoppedNote = (series: BuildSeries) =>
    series.error ??
    (series.stopped
      ? `stopped after ${(series.stopped.capMs / 1000).toFixed(0)} s (BENCH_BUILD_CAP_SECONDS waits longer)`
      : '');
  const warnings = (series: BuildSeries) => {
    const run = series.runs[0];
    return run?.warnings === undefined
      ? ''
      : `; ${run.warnings.toLocaleString('en')} warnings, ${run.brokenLinks?.toLocaleString('en') ?? '?'} broken links and anchors`;
  };
  const peakTarget = { max: tree.peakBytes ?? LARGE_TARGETS.peakBytes, inclusive: true };

  // Cold: `npm run compile` with nothing compiled, then the build with an empty cache.
  const { compile, cold, edited } = results;
  const coldRun = cold.runs[0];
  const compileMs = 'wallMs' in compile ? compile.wallMs : null;
  const coldWall = coldRun ? coldRun.wallMs + (compileMs ?? 0) : (cold.stopped?.afterMs ?? null);
  figures.push(
    {
      section,
      name: 'build, cold, incl. npm run compile: wall',
      value: coldWall,
      atLeast: !coldRun && coldWall !== null,
      unit: 'ms',
      target: { max: tree.coldMs ?? LARGE_TARGETS.coldMs, inclusive: true },
      note:
        ('error' in compile
          ? `compile not measured: ${compile.error}; `
          : `compile ${(compile.wallMs / 1000).toFixed(2)} s + build; `) +
        (stoppedNote(cold) || `build ${((coldRun?.wallMs ?? 0) / 1000).toFixed(1)} s${warnings(cold)}`) +
        (results.note ? `; ${results.note}` : ''),
    },
    {
      section,
      name: 'build, cold: peak memory',
      value: coldRun?.maxRssBytes ?? cold.stopped?.peakRssBytes ?? null,
      atLeast: !coldRun && cold.stopped?.peakRssBytes != null,
      unit: 'bytes',
      target: peakTarget,
      note: "the build's process (compile runs before it, in processes of its own)",
    },
  );
  const editedRun = edited.runs[0];
  figures.push(
    {
      section,
      name: 'build, one page changed (cache warm): wall',
      value: editedRun?.wallMs ?? edited.stopped?.afterMs ?? null,
      atLeast: !editedRun && edited.stopped?.afterMs != null,
      unit: 'ms',
      target: { max: LARGE_TARGETS.editedMs, inclusive: true },
      note: stoppedNote(edited) || `${tree.source.edit} edited${warnings(edited)}`,
    },
    {
      section,
      name: 'build, one page changed: peak memory',
      value: editedRun?.maxRssBytes ?? edited.stopped?.peakRssBytes ?? null,
      atLeast: !editedRun && edited.stopped?.peakRssBytes != null,
      unit: 'bytes',
      target: peakTarget,
    },
  );
  const b = results.browser;
  const missing = results.browserError
    ? `not measured: ${results.browserError}`
    : 'not measured: the cold build did not finish';
  const searches = b?.searches ?? [];
  const drawn = searches.map((s) => s.ms).filter((v): v is number => v !== null);
  const worst = (key: 'gzipBytes' | 'files' | 'wireBytes') => Math.max(...searches.map((s) => s[key]));
  figures.push(
    {
      section,
      name: 'first visit: files (gzip -9 each)',
      value: b?.firstVisitGzipBytes ?? null,
      unit: 'bytes',
      target: { max: LARGE_TARGETS.firstVisitBytes, inclusive: true },
      note: b
        ? `/docs/${b.route}: ${b.firstVisitFiles} files (HTML, JS, CSS, data); ${kb(b.firstVisitBytes)} on the wire`
        : missing,
    },
    {
      section,
      name: 'first visit: largest file (gzip -9)',
      value: b?.largestFile.gzipBytes ?? null,
      unit: 'bytes',
      target: { max: LARGE_TARGETS.largestFileBytes, inclusive: true },
      note: b ? b.largestFile.file : '',
    },
    {
      section,
      name: 'first search: keystroke → results drawn (median)',
      value: b && drawn.length > 0 ? median(drawn) : null,
      unit: 'ms',
      target: { max: LARGE_TARGETS.firstSearchMs, inclusive: true },
      note: b ? searches.map((s) => `"${s.query}" ${ms(s.ms)}`).join(', ') : missing,
    },
    {
      section,
      name: 'first search: files (gzip -9 each, the largest of its queries)',
      value: b && searches.length > 0 ? worst('gzipBytes') : null,
      unit: 'bytes',
      target: { max: LARGE_TARGETS.firstSearchBytes, inclusive: true },
      note: b
        ? `${searches.map((s) => `${s.files} requests, ${kb(s.gzipBytes)}`).join('; ')} (up to ${kb(worst('wireBytes'))} on the wire)`
        : '',
    },
  );
  const warm = results.warm;
  figures.push({
    section,
    name: 'warm query in the search worker: p95',
    value: warm?.p95 ?? null,
    unit: 'ms',
    target: { max: LARGE_TARGETS.warmQueryMs, inclusive: true },
    note: warm
      ? `median ${warm.median.toFixed(1)} ms; ${tree.source.warmQueries.length} queries × 3 rounds, their shards loaded${warm.empty.length ? `; no hits: ${warm.empty.join(', ')}` : ''}`
      : b
        ? missing
        : '',
  });
  if (b) figures.push(...clickFigures(section, b.clicks, LARGE_TARGETS.clickMs));
  if (tree.source.otherSection) {
    figures.push({
      section,
      name: 'link into another section: click → new h1',
      value: b?.otherSectionClickMs ?? null,
      unit: 'ms',
      target: { max: LARGE_TARGETS.clickMs },
    });
  }
  return figures;
}
