/**
 * Browser figures against a built dist/ served by the project's preview server, in Debian's Chromium:
 * the first visit of a page, in-app navigation and search in the dialog. Every time is taken inside the
 * page (performance timeline, event timestamps, MutationObserver), not from the driver's round trips.
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { median } from './builds';
import { clickFigures, clicksAfterLoad, type ClickTimes } from './clicks';
import { loadAverage, type Figure } from './report';

export interface FirstVisit {
  fcpMs: number | null;
  /** When the page's h1 was painted (element timing), when the browser reports it. */
  h1PaintMs: number | null;
  lcpMs: number | null;
  jsTransferBytes: number;
  cssTransferBytes: number;
  jsBodyBytes: number;
  cssBodyBytes: number;
  loadEventMs: number;
  /** When the app had taken over the prerendered page (it starts once the page has painted). */
  hydratedMs: number | null;
}

export interface SearchTiming {
  ms: number | null;
  /** Whether the index had finished downloading before the keystroke (then "cold" was not cold). */
  indexLoadedBefore: boolean;
}

export interface BrowserResults {
  route: string;
  firstVisits: FirstVisit[];
  navigations: { to: string; ms: number | null }[];
  /** Clicks in a row from a page just taken over (bench/clicks.ts). */
  clicksAfterLoad: ClickTimes;
  searchCold: SearchTiming[];
  searchWarm: SearchTiming[];
  problems: string[];
}

export const VIEWPORT = { width: 1280, height: 800 };

/**
 * tsx compiles this file with esbuild's keepNames, which wraps named functions in calls to a `__name`
 * helper; the functions handed to page.evaluate are sent as source text, so the page needs the helper too.
 */
export async function newContext(browser: Browser) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  return context;
}
const WAIT_MS = 10_000;

declare global {
  interface Window {
    __bench?: Promise<number | null>;
  }
}

/** The h1 text a reader sees (without the "#" permalink), from a built page's HTML. */
export function headingText(html: string): string | undefined {
  const content = html.indexOf('id="page-content"');
  const match = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(content >= 0 ? html.slice(content) : html);
  if (!match?.[1]) return undefined;
  return match[1]
    .replace(/<a\b[^>]*class="header-anchor"[^>]*>[\s\S]*?<\/a>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (entity: string, code: string) => {
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
      if (code.startsWith('#x') || code.startsWith('#X')) return String.fromCodePoint(parseInt(code.slice(2), 16));
      if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
      return named[code.toLowerCase()] ?? entity;
    })
    .trim();
}

/** Opens `url` in a fresh context (empty cache) and reads the page's own timeline once it has loaded. */
async function firstVisit(browser: Browser, url: string): Promise<FirstVisit> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    // Element timing needs the attribute on the element when it is painted: mark the page's h1 as soon
    // as the parser inserts it, and record paints from the start.
    await page.addInitScript(() => {
      const marks: Record<string, number> = {};
      (window as unknown as { __paints: Record<string, number> }).__paints = marks;
      // When the app has taken over the prerendered page (Layout sets data-hydrated on <html>).
      // Observed from the document: the <html> element does not exist yet when this script runs.
      new MutationObserver((_, self) => {
        if (document.documentElement?.dataset['hydrated'] !== 'true') return;
        marks['hydrated'] = performance.now();
        self.disconnect();
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
      const observer = new MutationObserver(() => {
        const h1 = document.querySelector('#page-content h1');
        if (h1 && !h1.hasAttribute('elementtiming')) {
          h1.setAttribute('elementtiming', 'bench-h1');
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true });
      try {
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            const e = entry as PerformanceEntry & { identifier?: string; renderTime?: number };
            if (e.identifier === 'bench-h1') marks['h1'] ??= e.renderTime || e.startTime;
          }
        }).observe({ type: 'element', buffered: true });
      } catch {
        // element timing unsupported: the figure falls back to FCP
      }
      try {
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) marks['lcp'] = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      } catch {
        // no LCP either
      }
    });
    await page.goto(url, { waitUntil: 'load' });
    // The app starts once the page has painted; what a first visit costs is counted until it has taken over.
    await hydrated(page);
    // Paint entries arrive after the frame is presented; give the timeline a moment.
    await page.waitForTimeout(300);
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const paints = (window as unknown as { __paints: Record<string, number> }).__paints;
      const hydratedAt = paints['hydrated'] ?? Infinity;
      const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (r) => r.responseEnd <= hydratedAt,
      );
      const sum = (pattern: RegExp, key: 'transferSize' | 'encodedBodySize') =>
        resources.filter((r) => pattern.test(new URL(r.name).pathname)).reduce((n, r) => n + r[key], 0);
      return {
        fcpMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        h1PaintMs: paints['h1'] ?? null,
        lcpMs: paints['lcp'] ?? null,
        jsTransferBytes: sum(/\.js$/, 'transferSize'),
        cssTransferBytes: sum(/\.css$/, 'transferSize'),
        jsBodyBytes: sum(/\.js$/, 'encodedBodySize'),
        cssBodyBytes: sum(/\.css$/, 'encodedBodySize'),
        loadEventMs: nav?.loadEventStart ?? 0,
        hydratedMs: paints['hydrated'] ?? null,
      };
    });
  } finally {
    await context.close();
  }
}

export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true', null, {
    timeout: WAIT_MS,
  });
}

/** Resolves `window.__bench` once; a run that never arrives counts as unmeasured, not as a time. */
export async function readBench(page: Page): Promise<number | null> {
  return page.evaluate(
    (wait) => Promise.race([window.__bench ?? null, new Promise<null>((r) => setTimeout(() => r(null), wait))]),
    WAIT_MS,
  );
}

/** Arms the in-page timer: from the next click to the moment the page's h1 reads `want`. */
export async function armHeadingTimer(page: Page, want: string): Promise<void> {
  await page.evaluate((expected) => {
    window.__bench = new Promise<number>((resolve) => {
      let clickedAt: number | undefined;
      const heading = () => {
        const h1 = document.querySelector('#main-content h1');
        if (!h1) return null;
        let text = '';
        for (const node of h1.childNodes) {
          if (!(node instanceof Element && node.classList.contains('header-anchor'))) text += node.textContent;
        }
        return text.trim();
      };
      document.addEventListener('click', (event) => (clickedAt = event.timeStamp), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (clickedAt !== undefined && heading() === expected) {
          observer.disconnect();
          resolve(performance.now() - clickedAt);
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  }, want);
}

/** Ten sidebar navigations in one tab: hover 100 ms (prefetch), click, time until the new h1 shows. */
async function navigations(
  browser: Browser,
  base: string,
  route: string,
  distDir: string,
  count: number,
  problems: string[],
) {
  const context = await newContext(browser);
  const results: { to: string; ms: number | null }[] = [];
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`navigation: ${e.message}`));
    await page.goto(`${base}/docs/${route}`);
    await hydrated(page);
    const hrefs = await page.$$eval('nav#sidebar a', (links) => links.map((a) => a.getAttribute('href') ?? ''));
    const candidates = [...new Set(hrefs)].filter((h) => h.startsWith('/docs/') && h !== `/docs/${route}`);
    const step = Math.max(1, Math.floor(candidates.length / count));
    const targets = candidates.filter((_, i) => i % step === Math.floor(step / 2)).slice(0, count);
    for (const href of targets) {
      const html = await readFile(path.join(distDir, href.slice('/docs/'.length), 'index.html'), 'utf8');
      const expected = headingText(html);
      if (!expected) {
        results.push({ to: href, ms: null });
        continue;
      }
      await armHeadingTimer(page, expected);
      const link = page.locator(`nav#sidebar a[href="${href}"]`).first();
      await link.hover();
      await page.waitForTimeout(100);
      await link.click();
      results.push({ to: href, ms: await readBench(page) });
    }
  } finally {
    await context.close();
  }
  return results;
}

/** Clicks in a row from `url`, opened in a fresh tab and just taken over (bench/clicks.ts). */
export async function clicksInNewTab(
  browser: Browser,
  url: string,
  distDir: string,
  count: number,
  problems: string[],
): Promise<ClickTimes> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`clicks after load: ${e.message}`));
    await page.goto(url);
    await hydrated(page);
    return await clicksAfterLoad(page, distDir, count);
  } finally {
    await context.close();
  }
}

/** Arms the in-page timer: from the keydown of `key` to the first `.search-hit` in the DOM. */
export async function armSearchTimer(page: Page, key: string): Promise<void> {
  await page.evaluate((k) => {
    window.__bench = new Promise<number>((resolve) => {
      let pressedAt: number | undefined;
      const onKey = (event: KeyboardEvent) => {
        if (event.key === k) {
          pressedAt = event.timeStamp;
          document.removeEventListener('keydown', onKey, true);
        }
      };
      document.addEventListener('keydown', onKey, true);
      const observer = new MutationObserver(() => {
        if (pressedAt !== undefined && document.querySelector('.search-hit')) {
          observer.disconnect();
          resolve(performance.now() - pressedAt);
        }
      });
      observer.observe(document.body, { subtree: true, childList: true });
    });
  }, key);
}

const indexLoaded = (page: Page) =>
  page.evaluate(() =>
    performance.getEntriesByType('resource').some((r) => /\/search\.[0-9a-f]+\.json$/.test(new URL(r.name).pathname)),
  );

/** Cold: a fresh tab, "/" opens the dialog (which starts loading the index), the first letter is typed at
 * once. Warm: in the same dialog, the query is cleared and other first letters are typed. */
async function searchTimings(
  browser: Browser,
  url: string,
  warmKeys: string[],
  problems: string[],
): Promise<{ cold: SearchTiming; warm: SearchTiming[] }> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`search: ${e.message}`));
    await page.goto(url);
    await hydrated(page);
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.matches('.search-dialog input') ?? false, null, {
      timeout: WAIT_MS,
    });
    await armSearchTimer(page, 'w');
    const loadedBefore = await indexLoaded(page);
    await page.keyboard.press('w');
    const cold = { ms: await readBench(page), indexLoadedBefore: loadedBefore };
    const warm: SearchTiming[] = [];
    if (cold.ms === null) return { cold, warm }; // no results at all: warm timings would only wait too
    for (const key of warmKeys) {
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.waitForFunction(() => !document.querySelector('.search-hit'), null, { timeout: WAIT_MS });
      await armSearchTimer(page, key);
      await page.keyboard.press(key);
      warm.push({ ms: await readBench(page), indexLoadedBefore: true });
    }
    return { cold, warm };
  } finally {
    await context.close();
  }
}

export interface BrowserOptions {
  route: string;
  visits: number;
  navigations: number;
  coldSearches: number;
}

/** Built sites served by the preview server, each on a port of its own, and a Chromium to measure them in. */
export interface OpenedSites {
  browser: Browser;
  /** The URL of the route asked for, on each site in turn. */
  urls: string[];
  /** Closes the browser and stops the servers. */
  close(): Promise<void>;
}

/**
 * Serves each of `dists` with the project's preview server (`urls` lead to `/docs/<route>` on each) and
 * launches Chromium, for the bench's A B and trace scripts; prints the load average they start at.
 */
export async function openSites(dists: readonly string[], route: string): Promise<OpenedSites> {
  const servers = dists.map((distDir) => createSiteServer({ distDir }));
  const urls: string[] = [];
  for (const server of servers) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/${route}`);
  }
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  console.log(`load average at the start: ${loadAverage()}`);
  return {
    browser,
    urls,
    close: async () => {
      await browser.close();
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
}

/** `openSites` for one built site (the `--dist` of a trace script): its page's URL as `url`, and the folder. */
export async function openSite(
  dist: string | undefined,
  route: string,
): Promise<Omit<OpenedSites, 'urls'> & { url: string; dist: string }> {
  if (!dist) throw new Error('--dist DIR: a built site');
  const { urls, ...opened } = await openSites([dist], route);
  return { ...opened, url: urls[0] ?? '', dist };
}

export async function measureBrowser(distDir: string, options: BrowserOptions): Promise<BrowserResults> {
  const executablePath = ensureChromium();
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const problems: string[] = [];
  try {
    const url = `${base}/docs/${options.route}`;
    const firstVisits: FirstVisit[] = [];
    for (let i = 0; i < options.visits; i++) firstVisits.push(await firstVisit(browser, url));
    const navs = await navigations(browser, base, options.route, distDir, options.navigations, problems);
    const clicks = await clicksInNewTab(browser, url, distDir, options.navigations, problems);
    const searchCold: SearchTiming[] = [];
    let searchWarm: SearchTiming[] = [];
    for (let i = 0; i < options.coldSearches; i++) {
      const { cold, warm } = await searchTimings(browser, url, i === 0 ? ['r', 't', 's', 'c', 'd'] : [], problems);
      searchCold.push(cold);
      if (i === 0) searchWarm = warm;
      if (cold.ms === null) break; // the dialog shows no results: repeating would only wait again
    }
    return {
      route: options.route,
      firstVisits,
      navigations: navs,
      clicksAfterLoad: clicks,
      searchCold,
      searchWarm,
      problems,
    };
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export interface BrowserTargets {
  textVisibleMs: number;
  navigationMs: number;
  searchColdMs: number;
  searchWarmMs: number;
}

const numbers = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
const msList = (values: number[]) => values.map((v) => Math.round(v)).join(' / ');

export function browserFigures(results: BrowserResults, targets: BrowserTargets): Figure[] {
  const section = 'Browser';
  const route = `/docs/${results.route}`;
  const visits = results.firstVisits;
  const fcp = numbers(visits.map((v) => v.fcpMs));
  const h1 = numbers(visits.map((v) => v.h1PaintMs));
  const of = (values: number[], total: number) =>
    values.length === 0
      ? `nothing arrived within ${WAIT_MS / 1000} s in ${total} run${total === 1 ? '' : 's'}`
      : `median of ${values.length}${values.length < total ? ` (of ${total} runs)` : ''}: ${msList(values)} ms`;
  const textVisible = h1.length ? h1 : fcp;
  const navMs = numbers(results.navigations.map((n) => n.ms));
  const navMissed = results.navigations.length - navMs.length;
  const cold = numbers(results.searchCold.map((s) => s.ms));
  const warm = numbers(results.searchWarm.map((s) => s.ms));
  const preloaded = results.searchCold.filter((s) => s.indexLoadedBefore).length;
  const first = visits[0];
  const maybe = (values: number[]) => (values.length ? median(values) : null);
  return [
    {
      section,
      name: `first visit ${route}: JS transferred until the app has taken over`,
      value: first ? median(visits.map((v) => v.jsTransferBytes)) : null,
      unit: 'bytes',
      note: first ? `compressed body ${Math.round(median(visits.map((v) => v.jsBodyBytes)) / 1024)} KB + headers` : '',
    },
    {
      section,
      name: `first visit ${route}: CSS transferred until the app has taken over`,
      value: first ? median(visits.map((v) => v.cssTransferBytes)) : null,
      unit: 'bytes',
    },
    {
      section,
      name: `first visit ${route}: first contentful paint`,
      value: maybe(fcp),
      unit: 'ms',
      note: fcp.length ? of(fcp, visits.length) : 'not reported by the browser',
    },
    {
      section,
      name: `first visit ${route}: text visible (h1 painted)`,
      value: maybe(textVisible),
      unit: 'ms',
      target: { max: targets.textVisibleMs },
      note: h1.length
        ? `element timing of #page-content h1; ${of(h1, visits.length)}`
        : 'element timing not reported: this is FCP (the text is in the HTML)',
    },
    {
      section,
      name: `first visit ${route}: load event`,
      value: visits.length ? median(visits.map((v) => v.loadEventMs)) : null,
      unit: 'ms',
    },
    {
      section,
      name: `first visit ${route}: app taken over (hydrated)`,
      value: maybe(numbers(visits.map((v) => v.hydratedMs))),
      unit: 'ms',
      note: `median of ${visits.length}: ${msList(numbers(visits.map((v) => v.hydratedMs)))} ms`,
    },
    {
      section,
      name: 'sidebar navigation: click → new h1 (median)',
      value: maybe(navMs),
      unit: 'ms',
      target: { max: targets.navigationMs },
      note: `${navMs.length} navigations after a 100 ms hover: ${msList(navMs)} ms${navMissed ? `; ${navMissed} did not arrive within ${WAIT_MS / 1000} s` : ''}`,
    },
    ...clickFigures(section, results.clicksAfterLoad, targets.navigationMs),
    {
      section,
      name: 'search: keystroke → results drawn, cold',
      value: maybe(cold),
      unit: 'ms',
      target: { max: targets.searchColdMs },
      note: `index not loaded yet; ${of(cold, results.searchCold.length)}${preloaded ? `; index was already loaded in ${preloaded}` : ''}`,
    },
    {
      section,
      name: 'search: keystroke → results drawn, warm',
      value: maybe(warm),
      unit: 'ms',
      target: { max: targets.searchWarmMs },
      note: results.searchWarm.length
        ? `index loaded; ${of(warm, results.searchWarm.length)}`
        : 'not measured: the cold search showed no results',
    },
  ];
}
