import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, FRAGMENT_CLOSE } from '../../src/shared/constants';
import type { ChunkLoadErrorType, DeploymentPointer, Manifest } from '../../src/shared/types';
import { hydrated, POLLED, searchDialogChunk, useBrowser } from '../e2e/browser';
import { routeNewShards, shardRecord } from '../e2e/deployment';
import { readStartAssets } from '../../src/node/output/document';
import { keyFromRoute } from '../../src/shared/paths';
import { startDataUrls, type ShardPage } from '../../src/shared/site-data';
import { SUMMARIES } from './summaries';

/**
 * Faults in the browser (issue 6), injected for real with request interception against the built site
 * served by the global setup. Every resource the app fetches — the manifest, a page fragment, the search
 * index and a lazy script chunk — meets every fault — 404, 500, a connection reset, a response that never
 * ends, a host's SPA fallback page and a truncated body — on a prerendered first load and after a
 * client-side navigation. Each case asserts what the reader sees: the ChunkLoadError type, a plain-words
 * explanation and a Retry button, a progress bar that finishes; then the fault is removed, Retry must
 * work and so must the next navigation. Going offline and a slow network follow the matrix. The counts go
 * to test-results/faults-*-summary.json for `npm run bench`.
 *
 * A case that fails only now and then is run again and again with the CPU slowed down, where races show:
 *   FAULTS_CPU_SLOWDOWN=4 FAULTS_REPEAT=50 npx vitest run --project resilience \
 *     test/resilience/faults-first-load.test.ts -t 'search shard.*truncated body'
 */
const CPU_SLOWDOWN = Number(process.env['FAULTS_CPU_SLOWDOWN'] ?? 1);
/** Runs of each case after its first (vitest's `repeats`): a failure in any run fails the case. */
const REPEATS = Number(process.env['FAULTS_REPEAT'] ?? 0);

const { open, base } = useBrowser();

interface Stop {
  path: string;
  title: string;
}

/** Where the reader starts (a prerendered first load). */
export const START: Stop = { path: '/docs/limits/', title: 'Limits' };
/** The client-side navigation that comes before the fault in the "after navigation" cases. */
export const VISITED: Stop = { path: '/docs/errors/', title: 'Errors' };
/** The page whose load meets the fault. */
export const TARGET: Stop = { path: '/docs/pricing/', title: 'Pricing' };
/** Never loaded before the fault is gone: the navigation that proves the network path works again. */
export const NEXT: Stop = { path: '/docs/quickstart/', title: 'Quickstart' };

/** Hashed file names; the query allows the `?retry=N` a retried import adds. */
const MANIFEST = /\/assets\/js\/manifest\.[0-9a-f]{8}\.json(\?.*)?$/;
export const FRAGMENTS = /\/assets\/js\/page\.[^/?]+\.[0-9a-f]{8}\.html(\?.*)?$/;
const SEARCH_DATA = /\/assets\/js\/search\.[0-9a-f]+\.json(\?.*)?$/;
const SEARCH_SHARDS = /\/assets\/js\/search\/[a-z]+\.\d+\.[0-9a-f]{8}\.json(\?.*)?$/;
const POINTER = /\/version\.json(\?.*)?$/;
const ROUTE_SHARDS = /\/assets\/js\/routes\.[0-9a-f]{8}\.json(\?.*)?$/;

/** The route shard a first visit of the page loads as the app starts: its own record's. */
async function preloadedShard(stop: Stop): Promise<string> {
  const html = await (await fetch(base() + stop.path)).text();
  const assets = readStartAssets(html);
  if (!assets) throw new Error(`${stop.path} lists no start assets`);
  const pointer = (await (await fetch(new URL(assets.pointer, base()))).json()) as DeploymentPointer;
  const routes = assets.route ? [assets.route] : [];
  const url = startDataUrls(pointer, assets.base, routes, assets.groups).find((file) => ROUTE_SHARDS.test(file));
  if (!url) throw new Error(`${stop.path} loads no route shard at start`);
  return new URL(url, base()).href;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The fragment files of a page, whatever their hash but `exceptHash`'s. */
function fragmentOf(stop: Stop, exceptHash?: string): RegExp {
  const key = escapeRegExp(keyFromRoute(stop.path.replace(/^\/docs/, '')));
  const hash = exceptHash ? `(?!${exceptHash})[0-9a-f]{8}` : '[0-9a-f]{8}';
  return new RegExp(`/page\\.${key}\\.${hash}\\.html(\\?.*)?$`);
}

/** Matches exactly one file, whatever its query. */
const fileUrl = (urlPath: string) => new RegExp(`${escapeRegExp(new URL(urlPath, 'http://x').pathname)}(\\?.*)?$`);

// ---------------------------------------------------------------------------------------------------
// The faults

interface Body {
  body: string;
  contentType: string;
}

interface Fault {
  name: string;
  /** The ChunkLoadError type the reader must be shown. */
  type: ChunkLoadErrorType;
  /** The plain words that explain it (src/shared/chunk-error.ts, describeChunkError). */
  says: RegExp;
  /** Answers an intercepted request the faulty way; `original` is the file's real content, if routed. */
  answer: (route: Route, original?: Body) => Promise<void> | void;
}

/** What static hosts serve for an unknown path when they are set up for single-page apps. */
const SPA_FALLBACK_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pipedream Docs</title></head>' +
  '<body><div id="app"></div><script type="module" src="/docs/assets/js/entry.js"></script></body></html>';

/**
 * The first part of the file. A script is cut just after a "(" so the rest can never parse as a whole
 * program (a cut between two statements would leave valid JavaScript); JSON and fragments cut anywhere
 * before their end are never whole.
 */
function cut({ body, contentType }: Body): string {
  const half = Math.floor(body.length / 2);
  if (!/javascript/.test(contentType)) return body.slice(0, half);
  return body.slice(0, body.indexOf('(', half) + 1 || half);
}

const FAULTS: Fault[] = [
  {
    name: '404',
    type: 'missing',
    says: /not found on the server/,
    answer: (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }),
  },
  {
    name: '500',
    type: 'error',
    says: /HTTP 500/,
    answer: (r) => r.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }),
  },
  {
    name: 'connection reset',
    type: 'error',
    says: /network request failed/,
    answer: (r) => r.abort('connectionreset'),
  },
  {
    // The handler never answers: the request stays open, as behind a stalled proxy. Playwright's clock
    // (installed before the page loads) reaches the spec's timeout without waiting for it.
    name: 'response that never ends',
    type: 'timeout',
    says: /took too long/,
    answer: () => {},
  },
  {
    name: 'SPA fallback page',
    type: 'missing',
    says: /not found on the server/,
    answer: (r) => r.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: SPA_FALLBACK_PAGE }),
  },
  {
    name: 'truncated body',
    type: 'error',
    says: /incomplete or damaged/,
    answer: async (r, original) => {
      let file = original;
      if (!file) {
        const response = await r.fetch();
        file = { body: await response.text(), contentType: response.headers()['content-type'] ?? '' };
      }
      await r.fulfill({ status: 200, contentType: file.contentType, body: cut(file) });
    },
  },
];

/** An answer put on the requests matching a pattern, counting the requests it answered. */
export class Injection {
  hits = 0;
  private active = true;

  constructor(
    private readonly context: BrowserContext,
    readonly pattern: RegExp,
    private readonly answer: (route: Route) => Promise<void> | void,
  ) {}

  private readonly handler = (route: Route) => {
    if (!this.active) return route.fallback();
    this.hits += 1;
    return this.answer(route);
  };

  // On the context, not the page: the search index is fetched by a worker.
  start = () => this.context.route(this.pattern, this.handler);

  /**
   * Requests from now on get the real file. The route stays registered: unrouting the last route ends
   * interception, which would release the requests a "never ends" answer holds, and a stalled
   * connection does not come back to life when the server recovers.
   */
  remove = () => {
    this.active = false;
  };
}

const inject = (page: Page, pattern: RegExp, fault: Fault, original?: Body) =>
  new Injection(page.context(), pattern, (route) => fault.answer(route, original));

// ---------------------------------------------------------------------------------------------------
// What the reader sees

export const sidebarLink = (page: Page, stop: Stop) => page.locator(`nav#sidebar a[href="${stop.path}"]`);

/** The page's own heading is shown (the anchor link adds a "#"), and no error view. */
export async function showsPage(page: Page, stop: Stop): Promise<void> {
  await page.waitForFunction(
    (title) => document.querySelector('#main-content h1')?.textContent?.replace(/#$/, '') === title,
    stop.title,
    { ...POLLED, timeout: 15_000 },
  );
  expect(await page.locator('.page-error').count()).toBe(0);
}

/** A prerendered first load, up to the point where the app has taken over. */
export async function load(page: Page, stop: Stop): Promise<void> {
  await page.goto(base() + stop.path, { waitUntil: 'domcontentloaded' });
  await hydrated(page);
  await showsPage(page, stop);
}

export async function navigate(page: Page, stop: Stop): Promise<void> {
  await sidebarLink(page, stop).click();
  await showsPage(page, stop);
}

/** Types a query into the open search dialog and waits until its answer is drawn. */
async function search(page: Page, query: string): Promise<string[]> {
  const field = page.locator('.search-dialog input[role="combobox"]');
  await field.fill(query);
  await page.waitForFunction(
    (q) =>
      document.querySelector<HTMLInputElement>('.search-dialog input')?.value === q &&
      /result/i.test(document.querySelector('.search-dialog [role="status"]')?.textContent ?? ''),
    query,
    { ...POLLED, timeout: 15_000 },
  );
  return page.locator('.search-hit').evaluateAll((hits) => hits.map((h) => h.getAttribute('data-url') ?? ''));
}

/** Search works: the dialog answers a query with the page it must find, then closes. */
export async function searchWorks(page: Page): Promise<void> {
  await page.locator('.search-dialog input').waitFor({ timeout: 15_000 });
  expect(await search(page, 'okta')).toContain('/orgs/sso/okta/');
  await page.keyboard.press('Escape');
  await page.locator('.search-dialog').waitFor({ state: 'detached' });
}

/** The type the search dialog's explanation names (it shows describeChunkError's words, no attribute). */
function typeInWords(text: string): string {
  if (/not found on the server/.test(text)) return 'missing';
  if (/took too long/.test(text)) return 'timeout';
  if (/HTTP \d{3}|network request failed|incomplete or damaged/.test(text)) return 'error';
  return `unclear: ${text}`;
}

// The progress bar's phases, recorded from the first paint on (the init script runs in every document).
const PROGRESS_LOG = '__progressPhases';

export async function watchProgressBar(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    const log: string[] = [];
    Object.assign(window, { [key]: log });
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target as Element;
        if (target.classList.contains('progress-bar')) log.push(target.getAttribute('data-phase') ?? '');
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-phase'] });
  }, PROGRESS_LOG);
}

export const progressPhases = (page: Page) =>
  page.evaluate((key) => [...((window as unknown as Record<string, string[]>)[key] ?? [])], PROGRESS_LOG);

/** Starts a new record once the bar is at rest, so the fade-out of an earlier navigation is not in it. */
export async function clearProgressLog(page: Page): Promise<void> {
  await barAtRest(page);
  await page.evaluate((key) => (window as unknown as Record<string, string[]>)[key]?.splice(0), PROGRESS_LOG);
}

const barAtRest = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('.progress-bar')?.getAttribute('data-phase') === 'idle',
    undefined,
    { ...POLLED, timeout: 10_000 },
  );

/**
 * The bar is back at rest and every run of it reached the end ("done" after each "loading"). A bar that
 * must not run at all (no navigation happened) has not moved; one that must have run (a navigation that
 * took 120 s) did.
 */
export async function progressFinished(page: Page, bar: 'still' | 'may run' | 'ran'): Promise<void> {
  await barAtRest(page);
  const phases = await progressPhases(page);
  if (bar === 'still') expect(phases).toEqual([]);
  if (bar === 'ran') expect(phases).toContain('loading');
  expect(phases.lastIndexOf('done')).toBeGreaterThanOrEqual(phases.lastIndexOf('loading'));
}

// ---------------------------------------------------------------------------------------------------
// A new deployment while the tab is open: the only time the app fetches a manifest after it started.

const NEW_HASH = 'feedface';
const NEW_DEPLOYMENT_TEXT = 'From the new deployment.';

/**
 * The server now holds a new deployment: version.json names a new manifest, the target page's old
 * fragment is gone (404) and its new one exists. `beforeSwitch` is given the new manifest's URL and
 * content before anything points at them, so a fault can be put on it: the app may meet the old
 * fragment's 404 at any moment after that (its prefetching of links in view does too).
 */
async function deployWhileOpen(page: Page, beforeSwitch: (newManifest: { url: string; file: Body }) => Promise<void>) {
  const context = page.context();
  const route = TARGET.path.replace(/^\/docs/, '');
  const manifestUrl = (await page.getAttribute('meta[name="docs-manifest"]', 'content')) ?? '';
  const manifest = (await page.evaluate((u) => fetch(u).then((r) => r.json()), manifestUrl)) as Manifest;
  const target = await shardRecord(page, manifest, route);
  // The request context is not routed: the old fragment may already answer 404 to the page.
  const fragment = await (await context.request.get(new URL(target.fragment, base()).href)).text();
  const newFragmentUrl = target.fragment.replace(/\.[0-9a-f]{8}\.html$/, `.${NEW_HASH}.html`);
  const newManifestUrl = manifestUrl.replace(/\.[0-9a-f]{8}\.json$/, `.${NEW_HASH}.json`);
  // The new deployment's route shards: the old ones, the target's record naming its new fragment.
  const edit = (p: ShardPage) => (p.path === route ? { ...p, fragment: newFragmentUrl } : p);
  const next: Manifest = {
    ...manifest,
    hash: NEW_HASH,
    shards: await routeNewShards(context, manifest, NEW_HASH, edit),
  };
  const pointer: DeploymentPointer = { manifest: newManifestUrl, hash: NEW_HASH };
  const file = { body: JSON.stringify(next), contentType: 'application/json' };
  await context.route(fileUrl(newManifestUrl), (r) => r.fulfill({ status: 200, ...file }));
  await context.route(fileUrl(newFragmentUrl), (r) =>
    r.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: fragment.replace(FRAGMENT_CLOSE, `<p>${NEW_DEPLOYMENT_TEXT}</p>${FRAGMENT_CLOSE}`),
    }),
  );
  await beforeSwitch({ url: newManifestUrl, file });
  await context.route(/\/docs\/version\.json(\?.*)?$/, (r) => r.fulfill({ json: pointer }));
  await context.route(fileUrl(target.fragment), (r) => r.fulfill({ status: 404, body: 'Not found' }));
}

// ---------------------------------------------------------------------------------------------------
// The scenarios: one per resource and moment, each saying why it has its shape.

type Moment = 'first load' | 'after navigation';

interface Scenario {
  resource: string;
  moment: Moment;
  /** Brings the tab to the moment with the fault in place (before the page loads, for a first load). */
  arrange: (page: Page, fault: Fault) => Promise<Injection>;
  /** For a file only an action fetches: the fault on it, not yet started (see `FOLLOWED_BY`). */
  onDemand?: (page: Page, fault: Fault) => Injection;
  /** What the reader does that needs the resource (nothing, when loading the page is enough). */
  trigger: (page: Page) => Promise<void>;
  /** Where the explanation and the Retry button are. */
  view: (page: Page) => Locator;
  /** The ChunkLoadError type as the view shows it. */
  shownType: (view: Locator) => Promise<string | null>;
  /** The fault hits a navigation (the progress bar may run) or not (the bar must stay still). */
  navigation: boolean;
  /** After Retry, with the fault gone: what must work now. */
  recovered: (page: Page) => Promise<void>;
  /** The faults it meets: every one, unless some would take exactly the way another scenario's do. */
  faults?: Fault[];
  /**
   * The file as the app's own `fetch()` asks for it, when a preload may meet the fault first (a link's
   * fragment asked for on intent before navigation has loaded): a timeout is counted from the app's request,
   * so the clock is moved on only once it is made (`recordPageFetches` in `arrange`).
   */
  fetchedByApp?: RegExp;
}

const faultsNamed = (...names: string[]) => FAULTS.filter((fault) => names.includes(fault.name));

const attribute = (view: Locator) => view.getAttribute('data-error-type');

/**
 * The faults a resource meets after a navigation when the first load's half meets all six on the same
 * resource (the page fragment, the search index, the search dialog's chunk): the file is fetched, its
 * fault classified and explained by the same code at either moment (load-fragment.ts, the search worker,
 * lazy-chunk.ts), so the other four would take exactly the first load's way. What the navigation changes
 * is around that code: a client-rendered page for the error view to replace, the app's state and timers
 * since. A missing file and one that never ends (whose clock runs those timers on by two minutes) show it.
 */
const AFTER_NAVIGATION_FAULTS = faultsNamed('404', 'response that never ends');
const afterNavigationFaults = (moment: Moment) => (moment === 'after navigation' ? AFTER_NAVIGATION_FAULTS : undefined);

const PAGE_FETCHES = '__pageFetches';

/** Records the URL of every `fetch()` the page's own scripts make (a preload is not one), from its start. */
async function recordPageFetches(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    const urls: string[] = [];
    Object.assign(window, { [key]: urls });
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
  }, PAGE_FETCHES);
}

/** Waits until the page's scripts have asked for a file matching `file` (see `recordPageFetches`). */
const pageFetched = (page: Page, file: RegExp) =>
  page.waitForFunction(
    ({ key, source }) =>
      ((window as unknown as Record<string, string[]>)[key] ?? []).some((url) => new RegExp(source).test(url)),
    { key: PAGE_FETCHES, source: file.source },
    { ...POLLED, timeout: 15_000 },
  );
export const pageError = (page: Page) => page.locator('.page-error');

/** The search dialog's script chunk: found in the browser in beforeAll, as the chunk '/' loads first. */
let dialogChunk: RegExp | undefined;

function dialogChunkFault(page: Page, fault: Fault): Injection {
  if (!dialogChunk) throw new Error('the search dialog chunk was not found');
  return inject(page, dialogChunk, fault);
}

/**
 * A file the app cannot start without, faulty from the first load: the prerendered page stays readable
 * under a startup banner, and Retry starts the app on it.
 */
function startupScenario(
  resource: string,
  file: RegExp,
  requestedBy: 'boot script' | 'app',
  faults?: Fault[],
): Scenario {
  return {
    resource,
    moment: 'first load',
    ...(faults ? { faults } : {}),
    arrange: async (page, fault) => {
      const injection = inject(page, file, fault);
      await injection.start();
      if (requestedBy === 'app') await recordPageFetches(page);
      await page.goto(base() + START.path, { waitUntil: 'domcontentloaded' });
      expect(await page.locator('#main-content h1').innerText()).toContain(START.title);
      expect((await page.locator('#page-content').innerText()).length).toBeGreaterThan(500);
      // The app starts after the first paint: its requests (and their timeouts) begin only then, and a
      // clock moved on before that would not reach them.
      await page.waitForFunction(() => document.documentElement.dataset['appStarted'] === 'true');
      // The boot script's preload is a request for the file too, and it meets the fault first: the app's
      // own request (whose timeout the clock must reach) comes once the files before it have loaded.
      if (requestedBy === 'app') await pageFetched(page, file);
      return injection;
    },
    trigger: async () => {},
    view: (page) => page.locator('.startup-error'),
    shownType: attribute,
    navigation: false,
    recovered: async (page) => {
      await hydrated(page);
      expect(await page.locator('.startup-error').count()).toBe(0);
      await showsPage(page, START);
    },
  };
}

const SCENARIOS: Scenario[] = [
  // The document names no deployment: the app reads the pointer to find its manifest, and cannot start
  // without it.
  startupScenario('deployment pointer', POINTER, 'boot script'),
  // The app cannot start without the manifest. The prerendered page must stay readable with a startup
  // banner over it (its links still work as plain page loads); Retry starts the app.
  startupScenario('manifest', MANIFEST, 'app'),
  {
    // A running app holds its manifest for good; it fetches one again only when a fragment is missing
    // and version.json names a new deployment. So the fault is on the new deployment's manifest, met by
    // a navigation to a page whose old fragment is gone: the reader must be told why the new manifest
    // failed (not that the old file is missing), and Retry must finish the switch to the new deployment.
    resource: 'manifest',
    moment: 'after navigation',
    arrange: async (page, fault) => {
      // The target's old fragment is gone from the start: prefetching the links in view must not cache it.
      await page.context().route(fragmentOf(TARGET, NEW_HASH), (r) => r.fulfill({ status: 404, body: 'Not found' }));
      await load(page, START);
      await navigate(page, VISITED);
      let injection: Injection | undefined;
      await deployWhileOpen(page, async (newManifest) => {
        injection = inject(page, fileUrl(newManifest.url), fault, newManifest.file);
        await injection.start();
      });
      if (!injection) throw new Error('the new deployment was not set up');
      return injection;
    },
    trigger: (page) => sidebarLink(page, TARGET).click(),
    view: pageError,
    shownType: attribute,
    navigation: true,
    recovered: async (page) => {
      await showsPage(page, TARGET);
      await page.getByText(NEW_DEPLOYMENT_TEXT).waitFor();
    },
  },
  // The page's own route shard (its record) is preloaded by its HTML: the app cannot start without it,
  // so it fails as the manifest does, with the page readable under a startup banner. The app's start reads
  // both with the same fetch (readRouteData, src/client/data/fetch-chunk.ts) and shows what it throws the
  // same way: a 404, a 500, a reset and a stall take the manifest's way exactly. Only the faults the
  // shard's own parser meets (an HTML page, a cut body) take a way of their own.
  startupScenario('route shard', ROUTE_SHARDS, 'app', faultsNamed('SPA fallback page', 'truncated body')),
  {
    // A link into a shard the tab has not loaded: the navigation needs the shard before the fragment.
    // VISITED's record is in another shard than START's (the harness checks the fault is hit). Every
    // shard but START's is faulty from the start, as links in view may be prefetched before the click.
    resource: 'route shard',
    moment: 'after navigation',
    arrange: async (page, fault) => {
      const startShard = escapeRegExp(new URL(await preloadedShard(START)).pathname);
      const injection = inject(page, new RegExp(`^(?!.*${startShard}).*${ROUTE_SHARDS.source}`), fault);
      await injection.start();
      await load(page, START);
      return injection;
    },
    trigger: (page) => sidebarLink(page, VISITED).click(),
    view: pageError,
    shownType: attribute,
    navigation: true,
    recovered: (page) => showsPage(page, VISITED),
    // A missing shard (404, or the SPA page its parser rejects) makes navigation look for a new deployment
    // (loadRouteData), and the parser meets the cut body. A 500, a reset and a stall fail through the same
    // query options, fetch and error view as the page fragment's after a navigation, and are its cases.
    faults: faultsNamed('404', 'SPA fallback page', 'truncated body'),
  },
  {
    // The current page's fragment is inside its prerendered HTML and is never fetched (asserted: a fault
    // there cannot reach the reader). The fault is in place from the start and meets the first fragment
    // the tab fetches: the first client-side navigation, from the hydrated page.
    resource: 'page fragment',
    moment: 'first load',
    fetchedByApp: FRAGMENTS,
    arrange: async (page, fault) => {
      const injection = inject(page, FRAGMENTS, fault);
      await injection.start();
      await recordPageFetches(page);
      // Its own fragment only: a link in view may have its page prefetched as soon as the app has started.
      const own: string[] = [];
      page.on('request', (request) => {
        if (fragmentOf(START).test(request.url())) own.push(request.url());
      });
      await load(page, START);
      expect(own, 'the first load fetched its own fragment').toEqual([]);
      return injection;
    },
    trigger: (page) => sidebarLink(page, TARGET).click(),
    view: pageError,
    shownType: attribute,
    navigation: true,
    recovered: (page) => showsPage(page, TARGET),
  },
  {
    // A later navigation: the error view replaces a page the client rendered itself. Only the target's
    // fragment is faulty, from the start: the app may prefetch it (a link in view) at any moment before
    // the click, and a fault put in place later would miss that request.
    resource: 'page fragment',
    moment: 'after navigation',
    arrange: async (page, fault) => {
      const injection = inject(page, fragmentOf(TARGET), fault);
      await injection.start();
      await load(page, START);
      await navigate(page, VISITED);
      return injection;
    },
    trigger: (page) => sidebarLink(page, TARGET).click(),
    view: pageError,
    shownType: attribute,
    navigation: true,
    recovered: (page) => showsPage(page, TARGET),
    faults: AFTER_NAVIGATION_FAULTS,
  },
  ...(['first load', 'after navigation'] as const).flatMap((moment): Scenario[] => [
    {
      // The worker fetches the index when search is first opened, never during the page load (asserted
      // for the first load). The failure shows inside the dialog, whose Retry loads the index again.
      resource: 'search index',
      moment,
      onDemand: (page, fault) => inject(page, SEARCH_DATA, fault),
      arrange: (page, fault) => arrangeBeforeOrAfter(page, moment, inject(page, SEARCH_DATA, fault)),
      trigger: (page) => page.keyboard.press('/'),
      view: (page) => page.locator('.search-failed'),
      shownType: async (view) => typeInWords(await view.innerText()),
      navigation: false,
      recovered: searchWorks,
      faults: afterNavigationFaults(moment),
    },
    ...(moment === 'first load'
      ? [
          {
            // The entry names the shards; a query fetches those it reaches. A shard that fails is
            // explained in the dialog, and Retry runs the query again.
            resource: 'search shard',
            moment,
            onDemand: (page: Page, fault: Fault) => inject(page, SEARCH_SHARDS, fault),
            arrange: (page: Page, fault: Fault) =>
              arrangeBeforeOrAfter(page, moment, inject(page, SEARCH_SHARDS, fault)),
            trigger: async (page: Page) => {
              await page.keyboard.press('/');
              await page.locator('.search-dialog input').fill('okta');
            },
            view: (page: Page) => page.locator('.search-failed'),
            shownType: async (view: Locator) => typeInWords(await view.innerText()),
            navigation: false,
            recovered: searchWorks,
          },
        ]
      : []),
    {
      // The search dialog's code is a lazy chunk that '/' loads (never the page load: asserted for the
      // first load). The failure shows where the dialog would be, and Retry imports the chunk again.
      resource: 'lazy script chunk',
      moment,
      onDemand: dialogChunkFault,
      arrange: (page, fault) => arrangeBeforeOrAfter(page, moment, dialogChunkFault(page, fault)),
      trigger: (page) => page.keyboard.press('/'),
      view: (page) => page.locator('.chunk-error'),
      shownType: attribute,
      navigation: false,
      recovered: searchWorks,
      faults: afterNavigationFaults(moment),
    },
  ]),
];

/** For resources only an action fetches: the fault before the first load, or after a navigation. */
async function arrangeBeforeOrAfter(page: Page, moment: Moment, injection: Injection): Promise<Injection> {
  if (moment === 'first load') {
    await injection.start();
    await load(page, START);
    expect(injection.hits, 'the page load fetched a file it must only fetch on demand').toBe(0);
  } else {
    await load(page, START);
    await navigate(page, VISITED);
    await injection.start();
  }
  return injection;
}

// ---------------------------------------------------------------------------------------------------
// The summary for `npm run bench`

interface CaseRecord {
  resource: string;
  fault: string;
  moment: Moment | 'mid-session';
  expected: string;
  seen: string | null;
  survived: boolean;
  ms: number;
}

const cases: CaseRecord[] = [];

type Entry = Omit<CaseRecord, 'seen' | 'survived' | 'ms'>;

/**
 * Runs a test in a fresh page (its own context, closed afterwards) and records its cases as injected; they
 * count as survived only if every assertion of the test passed.
 */
export async function recorded(
  entries: [Entry] | [Entry, Entry],
  body: (page: Page, record: CaseRecord, next: CaseRecord | undefined) => Promise<void>,
) {
  const records: CaseRecord[] = entries.map((entry) => ({ ...entry, seen: null, survived: false, ms: 0 }));
  const [record, next] = records as [CaseRecord, CaseRecord | undefined];
  cases.push(...records);
  const started = Date.now();
  // Cases run concurrently: each closes its own context.
  const { page } = await open(undefined, {}, 'caller');
  try {
    if (CPU_SLOWDOWN > 1) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    }
    await body(page, record, next);
    for (const record of records) record.survived = true;
  } finally {
    for (const record of records) record.ms = Date.now() - started;
    await page.context().close();
  }
}

afterAll(async () => {
  const summary = {
    date: new Date().toISOString(),
    injected: cases.length,
    survived: cases.filter((c) => c.survived).length,
    cases,
  };
  const file = part === 'first load' ? SUMMARIES.faultsFirstLoad : SUMMARIES.faultsAfterNavigation;
  console.log(`faults (${part}): ${summary.survived} of ${summary.injected} injected faults survived`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(summary, null, 2)}\n`);
});

// ---------------------------------------------------------------------------------------------------
// The matrix

beforeAll(async () => {
  const { page } = await open();
  await load(page, START);
  dialogChunk = fileUrl(await searchDialogChunk(page));
  await page.context().close();
});

/**
 * The faults of one moment, as one test file: the first load's and the navigation's halves of the
 * matrix run as two files, side by side (the browser waits more than it works). The network cases
 * (network-faults.ts) go with the navigation's half.
 */
export function faultSuite(moment: Moment): void {
  part = moment;
  matrix(SCENARIOS.filter((scenario) => scenario.moment === moment));
}

/** Which half of the matrix this file runs, for its summary. */
let part: Moment = 'first load';

/**
 * A file only an action fetches (the search dialog's chunk, the search index, a search shard) meets its
 * fault on the page of a case of the same moment and faults, once that case's Retry has worked: both faults
 * are in place from the start (so the page is seen not to fetch the second file before the action), and
 * each case keeps all its checks. The page load up to the app's start, most of a case's browser time, and
 * the navigations before the fault are made once for the two.
 */
const FOLLOWED_BY: Record<Moment, Record<string, string>> = {
  'first load': {
    'deployment pointer': 'lazy script chunk',
    manifest: 'search index',
    'page fragment': 'search shard',
  },
  'after navigation': { 'page fragment': 'search index' },
};

interface Test {
  title: string;
  first: Scenario;
  then?: Scenario;
}

function testsOf(scenarios: Scenario[]): Test[] {
  const followedBy = FOLLOWED_BY[scenarios[0]?.moment ?? 'first load'];
  const following = new Set(Object.values(followedBy));
  return scenarios
    .filter((scenario) => !following.has(scenario.resource))
    .map((first) => {
      const then = scenarios.find((scenario) => scenario.resource === followedBy[first.resource]);
      if (then && (then.faults !== first.faults || !then.onDemand)) throw new Error(`${then.resource} cannot follow`);
      const title = then ? `${first.resource}, then ${then.resource},` : first.resource;
      return { title: `${title} on ${first.moment}`, first, ...(then ? { then } : {}) };
    });
}

/** From a scenario's fault in place (`injection`, started) to its Retry having worked. */
async function meets(
  page: Page,
  scenario: Scenario,
  fault: Fault,
  { injection, record, expect }: { injection: Injection; record: CaseRecord; expect: ExpectStatic },
) {
  await clearProgressLog(page);
  await scenario.trigger(page);
  await expect.poll(() => injection.hits, { message: 'the fault was never hit', timeout: 10_000 }).toBeGreaterThan(0);

  const view = scenario.view(page);
  if (fault.type === 'timeout' && scenario.fetchedByApp) await pageFetched(page, scenario.fetchedByApp);
  if (fault.type === 'timeout') {
    // The page's clock ran on in real time since the request started (less than a second, or a few
    // on a busy machine), so "not yet" is checked with 10 s to spare and "by now" just after 120 s.
    await page.clock.runFor(CHUNK_LOAD_TIMEOUT_MS - 10_000);
    expect(await view.count(), 'failed long before the timeout').toBe(0);
    await page.clock.runFor(11_500);
  }
  await view.waitFor({ timeout: 15_000 });
  record.seen = await scenario.shownType(view);
  expect(record.seen).toBe(fault.type);
  expect(await view.innerText()).toMatch(fault.says);
  const retry = view.getByRole('button', { name: 'Retry' });
  expect(await retry.isVisible()).toBe(true);
  await progressFinished(page, !scenario.navigation ? 'still' : fault.type === 'timeout' ? 'ran' : 'may run');

  injection.remove();
  await retry.click();
  await scenario.recovered(page);
}

/**
 * The tests run a few at a time (the resilience project's maxConcurrency): a test mostly waits on the
 * browser, and each has its own context, faults and clock.
 */
function matrix(scenarios: Scenario[]): void {
  describe.concurrent.each(testsOf(scenarios))('$title', ({ first, then }) => {
    it.for(first.faults ?? FAULTS)(
      '$name: explained as "$type", Retry works, the next navigation works',
      { repeats: REPEATS },
      // The test's own `expect`: a concurrent test's `expect.poll` must know which test it belongs to.
      async (fault, { expect }) => {
        const entry = ({ resource, moment }: Scenario) => ({
          resource,
          moment,
          fault: fault.name,
          expected: fault.type,
        });
        const entries: [Entry] | [Entry, Entry] = then ? [entry(first), entry(then)] : [entry(first)];
        await recorded(entries, async (page, record, thenRecord) => {
          await watchProgressBar(page);
          if (fault.type === 'timeout') await page.clock.install();
          const later = then?.onDemand?.(page, fault);
          await later?.start();
          await meets(page, first, fault, { injection: await first.arrange(page, fault), record, expect });
          if (then && later && thenRecord) {
            expect(later.hits, 'the page load fetched a file it must only fetch on demand').toBe(0);
            await meets(page, then, fault, { injection: later, record: thenRecord, expect });
          }
          await navigate(page, NEXT);
        });
      },
    );
  });
}
