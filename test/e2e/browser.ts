import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { CHROMIUM_ARGS } from './chromium';

export interface OpenedPage {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
  /** Every request URL the page made. */
  requests: string[];
}

/**
 * Every test opens a fresh context, and Chromium would start a renderer process for each: on two cores,
 * reusing two is a good part of a browser test's time. Contexts stay apart (cache, storage, clock).
 */
const TEST_CHROMIUM_ARGS = [...CHROMIUM_ARGS, '--renderer-process-limit=2'];

/**
 * Who closes a page's context: the test file's hooks after each test, or the caller (a test running
 * concurrently with others, whose contexts an after-each hook would close under them).
 */
export type ClosedBy = 'after each test' | 'caller';

/** Closes a context whose route handlers may still be running, letting them go (see `useBrowser`). */
async function letGo(context: BrowserContext): Promise<void> {
  const owners = [...context.pages(), context].map((owner) => owner.unrouteAll({ behavior: 'ignoreErrors' }));
  await Promise.allSettled(owners);
  await context.close();
}

/**
 * The browser of this worker process. The browser projects run their files one after another in each
 * worker (isolate: false), and every test opens a fresh context of its own, so the files of a worker share
 * one browser rather than each launching its own. Playwright closes it when the worker process ends.
 */
let workerBrowser: Promise<Browser> | undefined;

async function browserOfWorker(): Promise<Browser> {
  const running = await workerBrowser?.catch(() => undefined);
  if (running?.isConnected()) return running;
  workerBrowser = chromium.launch({ executablePath: inject('chromiumPath'), args: TEST_CHROMIUM_ARGS });
  return workerBrowser;
}

/** The worker's browser for a test file; each test gets a fresh context (its own cache, storage and clock). */
export function useBrowser(): {
  open: (path?: string, options?: BrowserContextOptions, closedBy?: ClosedBy) => Promise<OpenedPage>;
  base: () => string;
} {
  let browser: Browser;
  const server = inject('servers')[0];
  if (!server) throw new Error('no server was started by the global setup');
  // Every context a test opened is closed after it: an open page goes on running (prefetching, timers,
  // the search worker), and a file's pages left open would take the cores from the tests after them.
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await browserOfWorker();
  });
  afterEach(async () => {
    // A test's route handler may still be fetching (a new deployment's files, served through `route.fetch`)
    // when the test ends: its response is disposed with the context, and the handler's error would reach
    // the run as an unhandled rejection. The test has asserted what it needed; its handlers are let go
    // (a context the test closed itself has none left).
    await Promise.all(contexts.splice(0).map(letGo));
  });
  afterAll(async () => {
    // The next file of the worker gets the browser as a fresh one: no context of this file's left open.
    await Promise.all(browser?.contexts().map(letGo) ?? []);
  });
  return {
    base: () => server.url,
    open: async (path, options = {}, closedBy = 'after each test') => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
      if (closedBy === 'after each test') contexts.push(context);
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => requests.push(r.url()));
      if (path !== undefined) await page.goto(server.url + path);
      return { page, problems, requests };
    },
  };
}

/**
 * How a long wait for a state of the page checks it: every 50 ms. Playwright's default checks it on every
 * animation frame, which keeps the tab drawing frames for as long as the wait lasts; the long waits (a
 * navigation, search results, a fault's explanation) add up to minutes of a run's browser time. A wait
 * whose duration is the measure, or after which a test races the app (the takeover), keeps the default.
 */
export const POLLED = { polling: 50 } as const;

/** Waits until the app has hydrated (the client takes over the prerendered page). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
}

/**
 * The URL of the lazy chunk named `name` ("search-dialog", "navigation"), read from the scripts the app starts
 * with (the entry and the chunks the document lists for its start): esbuild writes it there as
 * `import("./chunk.HASH.js")`, next to the chunk's name. Other chunks (the chunk's own imports, the search
 * worker's) are requested around it in no fixed order, so a test that fails this file picks it by name.
 */
export async function lazyChunk(page: Page, name: string): Promise<string> {
  const start = await page.evaluate(() => document.getElementById('docs-start')?.textContent ?? '');
  if (!start) throw new Error('the page lists no start assets');
  const { entry, modules } = JSON.parse(start) as { entry: string; modules: string[] };
  const found = new Set<string>();
  const pattern = new RegExp(`"${name}"[^;]{0,80}?\\bimport\\("(\\./chunk\\.[A-Z0-9]+\\.js)"\\)`, 'g');
  for (const file of [entry, ...modules]) {
    const url = new URL(file, page.url()).href;
    const source = await page.evaluate((u) => fetch(u).then((r) => r.text()), url);
    for (const match of source.matchAll(pattern)) found.add(new URL(match[1] as string, url).href);
  }
  if (found.size !== 1) throw new Error(`expected one ${name} chunk in the start scripts, found ${found.size}`);
  return [...found][0] as string;
}

export const searchDialogChunk = (page: Page): Promise<string> => lazyChunk(page, 'search-dialog');

/**
 * Holds back every request of the page that `match` matches until the returned function is called; then
 * it goes on, or fails as a network error would (`then: 'fail'`).
 */
export async function holdBack(
  page: Page,
  match: RegExp | ((url: URL) => boolean),
  then: 'go on' | 'fail' = 'go on',
): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(match, async (route) => {
    await released;
    await (then === 'fail' ? route.abort() : route.continue());
  });
  return release;
}

/** The navigation chunk (src/client/app/navigation-loader.ts) and the chunks it imports statically. */
export async function navigationFiles(page: Page): Promise<string[]> {
  const chunk = await lazyChunk(page, 'navigation');
  const source = await page.evaluate((u) => fetch(u).then((r) => r.text()), chunk);
  const imports = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*)"(\.\/chunk\.[A-Z0-9]+\.js)"/g)];
  return [chunk, ...imports.map((m) => new URL(m[1] as string, chunk).href)];
}

/** Records every layout shift of the page from its start; read them with `layoutShifts`. Call before `goto`. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shifts seen since the page started (see `recordLayoutShifts`), each its score. */
export function layoutShifts(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts);
}
