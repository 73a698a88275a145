import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_SHARDS_UP_TO } from '../../src/client/app/shard-prefetch';
import { IN_VIEW_DWELL_MS } from '../../src/client/app/viewport-prefetch';
import { shardOf } from '../../src/shared/site-data';
import type { DeploymentPointer } from '../../src/shared/types';
import { hydrated, POLLED, searchDialogChunk, useBrowser, type OpenedPage } from './browser';

const { open, base } = useBrowser();

/** A page's fragment file, matched by its key: `/docs/api/rest/` → `page.api.rest.<hash>.html`. */
function fragment(route: string): RegExp {
  const key = route.replace(/^\/docs\/|\/$/g, '').replace(/\//g, '.') || 'index';
  return new RegExp(`/assets/js/page\\.${key.replace(/\./g, '\\.')}\\.[0-9a-f]{8}\\.html$`);
}

const fetched = (opened: OpenedPage, route: string) => opened.requests.some((u) => fragment(route).test(u));

/**
 * Lets the in-view watcher run its course on the page's clock, without real waiting: its idle start runs,
 * then one rendering update is awaited (intersection observations come with rendering, not timers; an
 * observer made now reports in the same update as the watcher's, or a later one), then the dwell time and
 * the idle prefetch pass.
 */
async function settle(page: Page): Promise<void> {
  await page.clock.runFor(100);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const observer = new IntersectionObserver(() => {
          observer.disconnect();
          resolve();
        });
        observer.observe(document.body);
      }),
  );
  await page.clock.runFor(IN_VIEW_DWELL_MS + 500);
}

/** Waits (on a condition, not a delay) until the page has asked for a route's fragment. */
async function fetchedSoon(opened: OpenedPage, route: string): Promise<void> {
  await expect.poll(() => fetched(opened, route), { timeout: 10_000 }).toBe(true);
}

/** Opens a page with Playwright's clock installed, hydrated, with no pointer anywhere near a link. */
async function openWithClock(path: string, init?: () => void): Promise<OpenedPage> {
  const opened = await open();
  if (init) await opened.page.addInitScript(init);
  await opened.page.clock.install();
  await opened.page.goto(base() + path);
  await hydrated(opened.page);
  return opened;
}

describe('links in view are prefetched', () => {
  it('fetches the pages of links on screen once the browser is idle, without any pointer event', async () => {
    const opened = await openWithClock('/docs/limits/');
    const { page } = opened;
    // The sidebar entry of the current group and the content link in the first paragraph are on screen.
    await settle(page);
    await fetchedSoon(opened, '/docs/pricing/');
    await fetchedSoon(opened, '/docs/errors/');

    // The "Next" link sits at the bottom of this long page: not in view, not fetched yet.
    const next = (await page.getAttribute('.prev-next a.next', 'href')) ?? '';
    expect(next).toBe('/docs/orgs/');
    expect(fetched(opened, next)).toBe(false);
    // Scrolling (not a pointer event) brings it into view; after the dwell time its page is fetched.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await settle(page);
    await fetchedSoon(opened, next);

    // The top of the sidebar is scrolled far out of view (the sidebar shows the current page): never fetched,
    // nor the current page itself.
    const sidebarTop = await page.evaluate(() => {
      const link = document.querySelector<HTMLElement>('nav#sidebar a[href="/docs/quickstart/hello-world/"]');
      const sidebar = document.querySelector<HTMLElement>('nav#sidebar');
      return (link?.getBoundingClientRect().bottom ?? 0) < (sidebar?.getBoundingClientRect().top ?? 0);
    });
    expect(sidebarTop).toBe(true);
    expect(fetched(opened, '/docs/quickstart/hello-world/')).toBe(false);
    expect(fetched(opened, '/docs/limits/')).toBe(false);
    // Bounded: a handful of pages, never the sidebar's hundred-odd entries.
    const fragments = new Set(opened.requests.filter((u) => /\/page\.[^/]+\.html$/.test(u)));
    expect(fragments.size).toBeLessThanOrEqual(8);
  });

  it('prefetches the new page\u2019s links after a navigation, and a prefetched page opens without a request', async () => {
    const opened = await openWithClock('/docs/limits/');
    const { page } = opened;
    await settle(page);
    await fetchedSoon(opened, '/docs/pricing/');
    const before = opened.requests.filter((u) => fragment('/docs/pricing/').test(u)).length;
    expect(before).toBe(1);
    await page.evaluate(() => document.querySelector<HTMLElement>('nav#sidebar a[href="/docs/pricing/"]')?.click());
    await page.waitForFunction(() => document.querySelector('#main-content h1')?.textContent?.startsWith('Pricing'));
    expect(opened.requests.filter((u) => fragment('/docs/pricing/').test(u)).length).toBe(before);
    // The new page's own links are watched from scratch: its first link to Organizations, brought on
    // screen by scrolling, is fetched without any pointer event.
    expect(fetched(opened, '/docs/orgs/')).toBe(false);
    await page.evaluate(() =>
      document.querySelector('#page-content a[href="/docs/orgs/"]')?.scrollIntoView({ block: 'center' }),
    );
    await settle(page);
    await fetchedSoon(opened, '/docs/orgs/');
  });

  it('prefetches nothing in view when the reader asked the browser to save data', async () => {
    const opened = await openWithClock('/docs/limits/', () => {
      Object.defineProperty(Navigator.prototype, 'connection', {
        configurable: true,
        get: () => ({ saveData: true, effectiveType: '4g' }),
      });
    });
    const { page } = opened;
    await settle(page);
    // Intent still counts: the page under the pointer is fetched. Once it has been asked for, a prefetch
    // of the links in view (started during the settling above) would have been asked for too.
    const hovered = page.waitForRequest(fragment('/docs/orgs/'));
    await page.hover('nav#sidebar a[href="/docs/orgs/"]');
    await hovered;
    expect(fetched(opened, '/docs/pricing/')).toBe(false);
    expect(fetched(opened, '/docs/errors/')).toBe(false);
  });
});

describe("a small site's route shards", () => {
  it('are all fetched once the page is idle, so a link whose record is in another shard asks for its page alone', async () => {
    const opened = await open();
    const { page, requests } = opened;
    await page.clock.install();
    await page.goto(base() + '/docs/limits/');
    await hydrated(page);
    // The page's clock moves only when the test moves it, in steps far shorter than the time a link must
    // stay in view before its page is prefetched: no link's page is asked for by being on screen.
    // Paused 50 ms ahead of the page's time as read; on a busy machine the page may be past it by the time
    // the pause is set, and it is read again.
    for (let tries = 1; ; tries++) {
      const paused = await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 50).then(
        () => true,
        (error: unknown) => (tries < 5 && /to the past/.test(String(error)) ? false : Promise.reject(error)),
      );
      if (paused) break;
    }
    const pointer = (await (await fetch(`${base()}/docs/version.json`)).json()) as DeploymentPointer;
    const shards = pointer.shards ?? [];
    expect(shards.length).toBeGreaterThan(1);
    expect(shards.length).toBeLessThanOrEqual(ALL_SHARDS_UP_TO);
    const shardRequests = () => requests.filter((u) => /\/assets\/js\/routes\.[0-9a-f]+\.json$/.test(u));
    const allShards = () => shards.every((name) => shardRequests().some((u) => u.endsWith(`/routes.${name}.json`)));
    await expect
      .poll(
        async () => {
          if (!allShards()) await page.clock.runFor(50);
          return allShards();
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(true);
    expect(requests.filter((u) => /\/page\.[^/]+\.html$/.test(u))).toEqual([]);

    // A sidebar link whose record is not in the shard the page started with.
    const here = shardOf('/limits/', shards.length);
    const hrefs = await page.$$eval('nav#sidebar a[href^="/docs/"]', (links) =>
      links.filter((a) => a.getClientRects().length > 0).map((a) => a.getAttribute('href') ?? ''),
    );
    const target = hrefs.find((h) => !h.includes('#') && shardOf(h.replace(/^\/docs/, ''), shards.length) !== here);
    if (!target) throw new Error('no visible sidebar link of another route shard');
    await page.clock.resume();
    const shardsBefore = shardRequests().length;
    const before = requests.length;
    await page.click(`nav#sidebar a[href="${target}"]`);
    await page.waitForFunction(
      () => !document.querySelector('#main-content h1')?.textContent?.startsWith('Limits'),
      null,
      POLLED,
    );
    expect(new URL(page.url()).pathname).toBe(target);
    expect(shardRequests()).toHaveLength(shardsBefore);
    expect(requests.slice(before).filter((u) => fragment(target).test(u))).toHaveLength(1);
    expect(opened.problems).toEqual([]);
  });
});

describe('search loads before it is opened', () => {
  const SEARCH_DATA = /\/assets\/js\/search\.[0-9a-f]+\.json$/;

  it('starts the index download when the search button gets keyboard focus', async () => {
    const opened = await open('/docs/limits/');
    const { page, requests } = opened;
    await hydrated(page);
    expect(requests.some((u) => SEARCH_DATA.test(u))).toBe(false);
    const data = page.waitForRequest(SEARCH_DATA, { timeout: 10_000 });
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.classList.contains('search-button'))) break;
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search');
    await data;
    expect(await page.locator('.search-dialog').count()).toBe(0);
    // Opening it now finds the index loaded (or on its way): the first query is answered.
    await page.keyboard.press('Enter');
    await page.locator('.search-dialog input').fill('okta');
    await page.locator('.search-hit').first().waitFor();
    expect(requests.filter((u) => SEARCH_DATA.test(u))).toHaveLength(1);
  });

  it("starts it with the dialog's code when the shortcut opens the dialog, not once that code has arrived", async () => {
    const { page, requests } = await open('/docs/limits/');
    await hydrated(page);
    // The dialog's chunk is held back: the index must not wait for it.
    const dialogChunk = await searchDialogChunk(page);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(dialogChunk, async (route) => {
      await held;
      await route.continue();
    });
    const data = page.waitForRequest(SEARCH_DATA, { timeout: 10_000 });
    await page.keyboard.press('/');
    await data;
    expect(await page.locator('.search-dialog').count()).toBe(0);
    release();
    await page.locator('.search-dialog input').fill('okta');
    await page.locator('.search-hit').first().waitFor();
    expect(requests.filter((u) => SEARCH_DATA.test(u))).toHaveLength(1);
  });

  it('starts it when the pointer comes onto the search button', async () => {
    const { page, requests } = await open('/docs/limits/');
    await hydrated(page);
    const data = page.waitForRequest(SEARCH_DATA, { timeout: 10_000 });
    await page.hover('button.search-button');
    await data;
    expect(await page.locator('.search-dialog').count()).toBe(0);
    expect(requests.filter((u) => SEARCH_DATA.test(u))).toHaveLength(1);
  });
});
