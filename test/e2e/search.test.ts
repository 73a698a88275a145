import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { shardFiles, type SearchEntry } from '../../src/shared/search-layout';
import type { Manifest } from '../../src/shared/types';
import { holdBack, hydrated, lazyChunk, POLLED, useBrowser } from './browser';
import { routeNewShards } from './deployment';

const { open } = useBrowser();

/** The search data file; the worker fetches it when the dialog first opens. */
const SEARCH_DATA = /\/assets\/js\/search\.[0-9a-f]+\.json$/;
/** The shards the entry names; a query fetches those it reaches. */
const SEARCH_SHARD = /\/assets\/js\/search\/[a-z]+\.\d+\.[0-9a-f]{8}\.json$/;

const dialog = (page: Page) => page.locator('.search-dialog');
const input = (page: Page) => page.locator('.search-dialog input[role="combobox"]');
const hitUrls = (page: Page) =>
  page.locator('.search-hit').evaluateAll((hits) => hits.map((h) => h.getAttribute('data-url')));

/** Types a query and waits until the results (or the no-result state) for it are drawn. */
async function search(page: Page, query: string): Promise<void> {
  await input(page).fill(query);
  await page.waitForFunction(
    (q) => {
      const status = document.querySelector('.search-dialog [role="status"]')?.textContent ?? '';
      const field = document.querySelector<HTMLInputElement>('.search-dialog input');
      return field?.value === q && /result/i.test(status);
    },
    query,
    POLLED,
  );
}

async function statusText(page: Page): Promise<string> {
  return (await page.locator('.search-dialog [role="status"]').textContent()) ?? '';
}

describe('search', () => {
  it('opens with "/", finds the section, and Enter opens it at its heading', async () => {
    const { page, problems } = await open('/docs/limits/');
    // Navigation's chunk, asked for as the takeover ends, arrives only once the dialog is open: the
    // reader's search came first.
    const chunk = await lazyChunk(page, 'navigation');
    const releaseNavigation = await holdBack(page, (url) => url.href === chunk);
    const requested: string[] = [];
    page.on('request', (request) => void requested.push(request.url()));
    // The requests of the reloaded document only: the first one's navigation may prefetch until it goes.
    page.on('framenavigated', (frame) => void (frame === page.mainFrame() && requested.splice(0)));
    await page.reload();
    await hydrated(page);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.keyboard.press('/');
    await input(page).waitFor();
    releaseNavigation();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    expect(await page.locator('.search-empty').textContent()).toContain('Type to search');

    await search(page, 'pagination');
    const urls = await hitUrls(page);
    const target = urls.indexOf('/api/rest/#pagination');
    expect(target, urls.join(' ')).toBeGreaterThanOrEqual(0);
    expect(target).toBeLessThan(3);
    expect(await statusText(page)).toBe(`${urls.length} results`);
    expect(await page.locator('.search-hit mark').first().textContent()).toMatch(/^paginat/i);
    expect(await page.locator('.search-group-title').first().textContent()).not.toBe('');

    // The dialog has the page to itself: navigation starts only when the reader picks a result (or closes
    // the dialog), so nothing it fetches ahead (the other route shard, pages linked from this one) is
    // asked for yet.
    const before = requested.map((url) => new URL(url).pathname);
    expect(before.filter((file) => /\/routes\.[0-9a-f]{8}\.json$/.test(file))).toHaveLength(1);
    expect(before.filter((file) => /\/page\.[^/]+\.html$/.test(file))).toEqual([]);

    for (let i = 0; i < target; i++) await page.keyboard.press('ArrowDown');
    const selected = page.locator('.search-hit[aria-selected="true"]');
    expect(await selected.getAttribute('data-url')).toBe('/api/rest/#pagination');
    expect(await input(page).getAttribute('aria-activedescendant')).toBe(await selected.getAttribute('id'));
    await page.keyboard.press('Enter');

    await page.waitForURL('**/docs/api/rest/#pagination');
    expect(await dialog(page).count()).toBe(0);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    await page.waitForFunction(() => {
      const heading = document.getElementById('pagination');
      const box = heading?.getBoundingClientRect();
      return !!box && box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(problems).toEqual([]);
  });

  it('moves through results with the arrow keys, wrapping around', async () => {
    const { page } = await open('/docs/');
    await hydrated(page);
    await page.keyboard.press('/');
    await search(page, 'okta');
    const count = (await hitUrls(page)).length;
    expect(count).toBeGreaterThan(1);
    const selectedIndex = () =>
      page
        .locator('.search-hit')
        .evaluateAll((hits) => hits.findIndex((h) => h.getAttribute('aria-selected') === 'true'));
    expect(await selectedIndex()).toBe(0);
    await page.keyboard.press('ArrowDown');
    expect(await selectedIndex()).toBe(1);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await selectedIndex()).toBe(count - 1);
  });

  it('opens with Ctrl+K, closes with Escape and gives focus back', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    await page.locator('button.search-button').focus();
    await page.keyboard.press('Control+k');
    await input(page).waitFor();
    await input(page).fill('memory');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('search-button'))).toBe(true);
    expect(page.url()).toMatch(/\/docs\/limits\/$/);

    // Escape also closes it from the Close button, and "/" typed in the field is text, not a shortcut.
    await page.keyboard.press('Control+k');
    await input(page).pressSequentially('a/b');
    expect(await input(page).inputValue()).toBe('a/b');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
  });

  it('opens a result with a click', async () => {
    const { page } = await open('/docs/');
    await hydrated(page);
    await page.click('button.search-button');
    await search(page, 'daily invocations');
    await page.locator('.search-hit[data-url="/limits/#daily-invocations"]').click();
    await page.waitForURL('**/docs/limits/#daily-invocations');
    await page.waitForFunction(() => document.querySelector('#main-content h1')?.textContent?.includes('Limits'));
    expect(await dialog(page).count()).toBe(0);
  });

  it('gives focus to the heading of the page a result opens', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    await page.keyboard.press('/');
    await search(page, 'pricing');
    await page.locator('.search-hit[data-url="/pricing/"]').click();
    await page.waitForURL('**/docs/pricing/');
    expect(await dialog(page).count()).toBe(0);
    await page.waitForFunction(() => document.activeElement?.closest('#main-content h1') !== null);
  });

  it('leaves the header as it was when it opens: the search button stays under the pointer', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    const before = await page.locator('.search-button').boundingBox();
    await page.keyboard.press('/');
    await input(page).waitFor();
    expect(await page.locator('.search-button').boundingBox()).toEqual(before);
  });

  it('says so when nothing matches', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    await page.keyboard.press('/');
    await search(page, 'xyzzyqq');
    expect(await page.locator('.search-none').textContent()).toBe('No results for “xyzzyqq”.');
    expect(await statusText(page)).toBe('No results');
    expect(await page.locator('.search-hit').count()).toBe(0);
    expect(await input(page).getAttribute('aria-expanded')).toBe('false');
  });

  it('shows a query with HTML in it as text', async () => {
    const { page, problems } = await open('/docs/limits/');
    await hydrated(page);
    let alerted = false;
    page.on('dialog', (d) => {
      alerted = true;
      void d.dismiss();
    });
    await page.keyboard.press('/');
    const query = '<img src=x onerror=alert(1)>';
    await search(page, query);
    expect(await dialog(page).locator('img').count()).toBe(0);
    const none = page.locator('.search-none strong');
    if ((await none.count()) > 0) expect(await none.textContent()).toBe(query);
    for (const mark of await page.locator('.search-hit mark').allTextContents()) expect(mark).not.toMatch(/[<>]/);
    await search(page, '.*(');
    expect(alerted).toBe(false);
    expect(problems).toEqual([]);
  });

  it('explains an index that fails to load, and Retry loads it', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    await page.context().route(SEARCH_DATA, (r) => r.fulfill({ status: 500, body: 'Internal Server Error' }));
    await page.keyboard.press('/');
    const failed = page.locator('.search-failed');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('The search index could not be loaded.');
    expect(await failed.textContent()).toContain('HTTP 500');
    expect(await failed.getAttribute('role')).toBe('alert');

    await page.context().unroute(SEARCH_DATA);
    await failed.locator('button', { hasText: 'Retry' }).click();
    await search(page, 'okta');
    expect((await hitUrls(page))[0]).toBe('/orgs/sso/okta/');
  });

  it('says it is searching while a query waits for its shards, then shows the results', async () => {
    const { page, problems } = await open('/docs/limits/');
    await hydrated(page);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.context().route(SEARCH_SHARD, async (route) => {
      await held;
      await route.fallback();
    });
    await page.keyboard.press('/');
    await input(page).fill('okta');
    await page.locator('.search-searching').waitFor();
    expect(await statusText(page)).toBe('Searching…');
    release();
    await page.waitForFunction(() =>
      /result/.test(document.querySelector('.search-dialog [role="status"]')?.textContent ?? ''),
    );
    expect((await hitUrls(page))[0]).toBe('/orgs/sso/okta/');
    expect(await page.locator('.search-searching').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('switches to a new deployment when the search shards a query reaches are gone', async () => {
    const { page, problems } = await open('/docs/limits/');
    await hydrated(page);
    const context = page.context();
    // On the context: the search worker's requests are not the page's.
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    const manifestUrl = (await page.getAttribute('meta[name="docs-manifest"]', 'content')) ?? '';
    const manifest = (await page.evaluate((u) => fetch(u).then((r) => r.json()), manifestUrl)) as Manifest;
    const entry = (await page.evaluate((u) => fetch(u).then((r) => r.json()), manifest.search)) as SearchEntry;
    // The dialog opens on the old deployment: the worker loads its entry, and no query has run yet.
    const entryLoaded = context.waitForEvent('requestfinished', (r) => SEARCH_DATA.test(r.url()));
    await page.keyboard.press('/');
    await entryLoaded;

    // Now the server holds a new deployment, and the old deployment's search shards are gone.
    const hash = 'feedface';
    const searchHash = 'cafebabe';
    const newEntry = manifest.search.replace(/\.[0-9a-f]{8}\.json$/, `.${searchHash}.json`);
    const newManifest = manifestUrl.replace(/\.[0-9a-f]{8}\.json$/, `.${hash}.json`);
    const assets = path.join(inject('distDir'), 'assets/js');
    const shards = await routeNewShards(context, manifest, hash);
    await context.route(`**${newManifest}`, (r) =>
      r.fulfill({ json: { ...manifest, hash, search: newEntry, shards } }),
    );
    // Every shard renamed, as if every one had changed: each new name serves the old name's bytes.
    const renamed = (shardHash: string) =>
      shardHash.replace(/[0-9a-f]/g, (c) => ((parseInt(c, 16) + 1) % 16).toString(16));
    const hashes = Object.fromEntries(
      Object.entries(entry.hashes).map(([kind, list]) => [kind, list.map(renamed)]),
    ) as SearchEntry['hashes'];
    const newEntryData: SearchEntry = { ...entry, hashes };
    const oldNames = new Map(shardFiles(newEntryData).map((file, i) => [path.basename(file), shardFiles(entry)[i]]));
    await context.route(`**${newEntry}`, (r) => r.fulfill({ json: newEntryData }));
    let gone = 0;
    await context.route(/\/search\/[a-z]+\.\d+\.[0-9a-f]{8}\.json$/, async (r) => {
      const old = oldNames.get(path.basename(new URL(r.request().url()).pathname));
      if (!old) {
        gone++;
        return r.fulfill({ status: 404, body: 'Not found' });
      }
      return r.fulfill({ contentType: 'application/json', body: await readFile(path.join(assets, old)) });
    });
    await context.route(/\/docs\/version\.json(\?.*)?$/, (r) => r.fulfill({ json: { manifest: newManifest, hash } }));

    await search(page, 'okta');
    expect((await hitUrls(page))[0]).toBe('/orgs/sso/okta/');
    expect(gone, 'the query never met a shard that is gone').toBeGreaterThan(0);
    expect(requests.some((u) => u.endsWith(newEntry))).toBe(true);
    expect(await page.locator('.search-failed').count()).toBe(0);
    expect(problems.filter((p) => !/404/.test(p))).toEqual([]);
  });

  it("loads a small site's whole index after the first query, and keeps answering offline", async () => {
    const { page } = await open('/docs/limits/');
    const shards = (await readdir(path.join(inject('distDir'), 'assets/js/search'))).length;
    const fetched = new Set<string>();
    page.context().on('requestfinished', (request) => {
      if (SEARCH_SHARD.test(request.url())) fetched.add(request.url());
    });
    await hydrated(page);
    await page.keyboard.press('/');
    await search(page, 'webhooks');
    expect(fetched.size, 'the first query fetched every shard itself').toBeLessThan(shards);
    await expect.poll(() => fetched.size, { timeout: 10_000 }).toBe(shards);
    await page.context().setOffline(true);
    await search(page, 'cron schedule');
    expect((await hitUrls(page)).length).toBeGreaterThan(0);
    // Closed and opened again, still offline: the dialog and the worker's index are still there.
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await search(page, 'okat');
    expect((await hitUrls(page))[0]).toBe('/orgs/sso/okta/');
    await page.context().setOffline(false);
  });

  it('fills a narrow screen', async () => {
    const { page } = await open('/docs/limits/', { viewport: { width: 375, height: 740 } });
    await hydrated(page);
    await page.click('button.search-button');
    await input(page).waitFor();
    const box = await dialog(page).boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 375, height: 740 });
  });
});
