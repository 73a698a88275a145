import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/shared/types';
import type { ShardPage } from '../../src/shared/site-data';
import { routeNewShards, shardRecord } from './deployment';
import { hydrated, lazyChunk, POLLED, useBrowser } from './browser';

const { open, base } = useBrowser();

const PRICING = /\/docs\/assets\/js\/page\.pricing\.[0-9a-f]{8}\.html$/;

async function h1Becomes(page: Page, title: string): Promise<void> {
  await page.waitForFunction(
    (t) => document.querySelector('#main-content h1')?.textContent?.replace(/#$/, '') === t,
    title,
    POLLED,
  );
}

/**
 * Makes every load of the chunk at `url` fail with a 503 until the returned function is called, then loads
 * it as served; and loads `/docs/limits/` until the startup banner says what failed.
 */
async function failingChunkAtStart(page: Page, url: string): Promise<() => void> {
  let failing = true;
  // Only the chunk's own URL: a retry asks for it under a fresh query (src/client/app/lazy-chunk.ts).
  await page.route(
    (requested) => requested.href === url,
    (r) => (failing ? r.fulfill({ status: 503, body: 'busy' }) : r.continue()),
  );
  await page.goto(`${base()}/docs/limits/`);
  const banner = page.locator('.startup-error');
  await banner.waitFor();
  expect(await banner.getAttribute('data-error-type')).toBe('error');
  return () => (failing = false);
}

// Every resource meeting every fault (a fragment, a route shard, the manifest, the search index, the dialog's
// chunk, at first load and after a navigation) is the matrix of test/resilience/fault-matrix.ts; this file
// keeps the app-level scenarios around it: a first load without the manifest, and a new deployment.

describe('startup and script chunks', () => {
  it('keeps the prerendered page readable when the manifest cannot load, and Retry starts the app', async () => {
    const { page } = await open();
    let failing = true;
    await page.route(/manifest\.[0-9a-f]{8}\.json$/, (r) =>
      failing ? r.fulfill({ status: 503, body: 'busy' }) : r.continue(),
    );
    await page.goto(`${base()}/docs/limits/`);
    await page.locator('.startup-error').waitFor();
    expect(await page.textContent('#main-content h1')).toContain('Limits');
    failing = false;
    await page.click('.startup-error button');
    await hydrated(page);
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(page, 'Pricing');
  });

  // The takeover imports its modules in steps (src/client/entry.tsx): a step whose chunk fails leaves the
  // page readable with the startup banner, and Retry asks for the chunk again.
  for (const step of ['app', 'react-dom']) {
    it(`shows the startup banner when the takeover's ${step} chunk fails, and Retry starts the app`, async () => {
      const { page } = await open();
      const heal = await failingChunkAtStart(page, await stepChunk(page, step));
      const banner = page.locator('.startup-error');
      expect(await page.textContent('#main-content h1')).toContain('Limits');
      heal();
      await page.click('.startup-error button');
      await hydrated(page);
      expect(await banner.count()).toBe(0);
      await page.click('nav#sidebar a[href="/docs/pricing/"]');
      await h1Becomes(page, 'Pricing');
    });
  }

  it('shows the startup banner when navigation fails to load: links load pages, and Retry brings it back', async () => {
    const { page } = await open();
    await page.goto(`${base()}/docs/limits/`);
    const heal = await failingChunkAtStart(page, await lazyChunk(page, 'navigation'));
    const banner = page.locator('.startup-error');
    await hydrated(page);
    // As the banner says: a link is a plain page load, a new document.
    await page.evaluate(() => ((window as unknown as { sameDocument?: boolean }).sameDocument = true));
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(page, 'Pricing');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBeUndefined();
    await banner.waitFor();
    heal();
    await page.click('.startup-error button');
    expect(await banner.count()).toBe(0);
    // The tap waits for navigation, which Retry is loading, and is answered in the same document.
    await page.evaluate(() => ((window as unknown as { sameDocument?: boolean }).sameDocument = true));
    await page.click('nav#sidebar a[href="/docs/errors/"]');
    await h1Becomes(page, 'Errors');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });
});

/**
 * The URL of a step of the takeover, read from the scripts the app starts with: esbuild writes each as
 * `retryableChunk("<step>",()=>import("./chunk.HASH.js"))`, its name beside its import.
 */
async function stepChunk(page: Page, step: string): Promise<string> {
  await page.goto(`${base()}/docs/limits/`);
  const { entry, modules } = JSON.parse(
    (await page.evaluate(() => document.getElementById('docs-start')?.textContent)) ?? '{}',
  ) as { entry: string; modules: string[] };
  const pattern = new RegExp(`"${step}",\\(\\)=>import\\("(\\./chunk\\.[A-Z0-9]+\\.js)"\\)`);
  for (const file of [entry, ...modules]) {
    const url = new URL(file, page.url()).href;
    const found = pattern.exec(await page.evaluate((u) => fetch(u).then((r) => r.text()), url))?.[1];
    if (found) return new URL(found, url).href;
  }
  throw new Error(`no takeover step named ${step} in the start scripts`);
}

describe('a new deployment while the tab is open', () => {
  it('switches to the new manifest and shows the page from it, without a reload', async () => {
    const { page } = await open();
    // The old fragment is gone from the start, so prefetching the links in view cannot cache it first.
    await page.route(PRICING, (r) => r.fulfill({ status: 404, body: 'gone' }));
    await page.goto(`${base()}/docs/limits/`);
    await hydrated(page);
    const manifestUrl = (await page.getAttribute('meta[name="docs-manifest"]', 'content')) ?? '';
    const current = (await page.evaluate((u) => fetch(u).then((r) => r.json()), manifestUrl)) as Manifest;
    const pricing = await shardRecord(page, current, '/pricing/');
    const fragment = pricing.fragment.replace(/\.[0-9a-f]{8}\.html$/, '.deadbeef.html');
    const edit = (p: ShardPage) => (p.path === '/pricing/' ? { ...p, fragment } : p);
    const manifest = { ...current, hash: 'deadbeef', shards: await routeNewShards(page, current, 'deadbeef', edit) };
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.route(/version\.json$/, (r) =>
      r.fulfill({ json: { manifest: '/docs/assets/js/manifest.deadbeef.json', hash: 'deadbeef' } }),
    );
    await page.route(/manifest\.deadbeef\.json$/, (r) => r.fulfill({ json: manifest }));
    await page.route(/page\.pricing\.deadbeef\.html$/, (r) =>
      r.fulfill({
        contentType: 'text/html',
        body: '<!--docs-fragment--><h1 id="pricing">Pricing</h1><p>From the new deployment.</p><!--/docs-fragment-->',
      }),
    );
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await page.waitForFunction(() =>
      document.querySelector('#page-content')?.textContent?.includes('From the new deployment.'),
    );
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it('falls back to one full reload when the new deployment cannot serve the page either, never a loop', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    let documentLoads = 0;
    page.on('request', (r) => r.resourceType() === 'document' && documentLoads++);
    await page.route(/page\.pricing\./, (r) => r.fulfill({ status: 404, body: 'gone' }));
    await page.route(/version\.json$/, (r) =>
      r.fulfill({ json: { manifest: '/docs/assets/js/manifest.0badf00d.json', hash: '0badf00d' } }),
    );
    const manifestUrl = new URL((await page.getAttribute('meta[name="docs-manifest"]', 'content')) ?? '', base()).href;
    const current = (await page.evaluate((u) => fetch(u).then((r) => r.json()), manifestUrl)) as Manifest;
    const shards = await routeNewShards(page, current, '0badf00d');
    await page.route(/manifest\.0badf00d\.json$/, (r) => r.fulfill({ json: { ...current, hash: '0badf00d', shards } }));
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await page.waitForTimeout(2500);
    expect(documentLoads).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/docs/pricing/');
  });
});
