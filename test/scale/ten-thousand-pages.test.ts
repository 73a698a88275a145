import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Response } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { PAGES_PER_SHARD, shardOf } from '../../src/shared/site-data';
import type { Manifest } from '../../src/shared/types';
import { hydrated, useBrowser } from '../e2e/browser';

/**
 * The site at 10,000 pages (test/scale/global-setup.ts builds it once): what a reader downloads stays
 * the size of one page's needs, links into route shards the tab has not loaded work, search reaches a
 * page in the last shard, and a shard that fails to load is explained with a Retry.
 */
const { open, base } = useBrowser();
const lastShardPage = inject('lastShardPage');
const SHARD = /\/assets\/js\/routes\.([0-9a-f]{8})\.json$/;

/** The names of the route shards of the deployment the page's tab runs, in order (`SiteCore.shards`). */
const shardNames = (page: import('playwright-core').Page): Promise<string[]> =>
  page.evaluate(async () => {
    const pointer = (await (await fetch('/docs/version.json')).json()) as { manifest: string };
    return ((await (await fetch(pointer.manifest)).json()) as { shards: string[] }).shards;
  });

/** Every response of the page with its body size, as the page received them. */
function recordResponses(page: import('playwright-core').Page): { url: string; bytes: number }[] {
  const seen: { url: string; bytes: number }[] = [];
  page.on('response', (response: Response) => {
    void response.body().then(
      (body) => seen.push({ url: response.url(), bytes: body.length }),
      () => seen.push({ url: response.url(), bytes: 0 }),
    );
  });
  return seen;
}

const shardsRequested = (requests: string[]) => new Set(requests.flatMap((u) => SHARD.exec(u)?.[1] ?? []));

describe('a site of 10,000 pages', () => {
  it('has a first visit that transfers no whole-site file', async () => {
    const { page, problems } = await open();
    const responses = recordResponses(page);
    await page.goto(`${base()}/docs/limits/`);
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    const manifestUrl = responses.find((r) => /\/manifest\.[0-9a-f]{8}\.json$/.test(r.url))?.url ?? '';
    expect(manifestUrl, 'the manifest was not fetched').not.toBe('');
    const manifest = (await page.evaluate((u) => fetch(u).then((r) => r.json()), manifestUrl)) as Manifest;
    expect(manifest.pages).toEqual([]);
    expect(manifest.shards?.length).toBeGreaterThan(100);
    expect(responses.some((r) => /\/search\.[0-9a-f]+\.json$/.test(r.url))).toBe(false);
    // Each data file is about one shard's worth (a few dozen records), never the site's.
    for (const r of responses.filter((r) => r.url.endsWith('.json'))) {
      expect(r.bytes, r.url).toBeLessThan(PAGES_PER_SHARD * 4096);
    }
    const data = responses.filter((r) => r.url.endsWith('.json')).reduce((n, r) => n + r.bytes, 0);
    expect(data).toBeLessThan(256 * 1024);
    expect(problems).toEqual([]);
  });

  it('follows a link into a route shard the tab has not loaded', async () => {
    const { page, problems, requests } = await open('/docs/limits/');
    await hydrated(page);
    const section = page.locator('button.sidebar-fold', { hasText: /^Section 42$/ });
    await section.click();
    const links = page.locator('nav#sidebar section', { has: section }).locator('a[href]');
    await links.first().waitFor();
    const loaded = shardsRequested(requests);
    const names = await shardNames(page);
    const hrefs = await links.evaluateAll((as) =>
      as.map((a) => [a.getAttribute('href') ?? '', a.textContent ?? ''] as const),
    );
    const target = hrefs.find(([href]) => !loaded.has(names[shardOf(href.replace(/^\/docs/, ''), names.length)] ?? ''));
    if (!target) throw new Error('every link of the group is in a shard already loaded');
    const [href, title] = target;
    await page.evaluate((h) => document.querySelector<HTMLElement>(`nav#sidebar a[href="${h}"]`)?.click(), href);
    await page.waitForFunction(
      (t) => document.querySelector('#main-content h1')?.textContent?.replace(/#$/, '') === t,
      title,
    );
    expect(new URL(page.url()).pathname).toBe(href);
    expect(shardsRequested(requests).size).toBe(loaded.size + 1);
    expect(problems).toEqual([]);
  });

  it('finds a page whose record is in the last route shard, loading only the search shards it needs', async () => {
    const { page, problems, requests } = await open('/docs/limits/');
    await hydrated(page);
    // On the context: the search worker's fetches are not the page's.
    const searched: string[] = [];
    page.context().on('requestfinished', (request) => {
      if (/\/assets\/js\/search[./]/.test(request.url())) searched.push(request.url());
    });
    await page.keyboard.press('/');
    const field = page.locator('.search-dialog input[role="combobox"]');
    await field.fill(lastShardPage.word.toLowerCase());
    const hit = page.locator(`.search-hit[data-url="${lastShardPage.route}"]`);
    await hit.waitFor({ timeout: 30_000 });
    const shards = (await readdir(path.join(inject('distDir'), 'assets/js/search'))).length;
    expect(shards).toBeGreaterThan(1000);
    expect(searched.filter((u) => /\/search\.[0-9a-f]{8}\.json$/.test(u))).toHaveLength(1);
    expect(searched.length, searched.join('\n')).toBeLessThan(20);
    await field.press('Enter');
    await page.waitForFunction(
      (t) => document.querySelector('#main-content h1')?.textContent?.replace(/#$/, '') === t,
      lastShardPage.title,
    );
    expect(new URL(page.url()).pathname).toBe(`/docs${lastShardPage.route}`);
    const names = await shardNames(page);
    expect(names).toHaveLength(lastShardPage.shards);
    expect(shardsRequested(requests).has(names[lastShardPage.shard] ?? '')).toBe(true);
    expect(problems).toEqual([]);
  });

  it('explains a route shard that fails to load as a ChunkLoadError, with a Retry that works', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    const shard = `routes.${(await shardNames(page))[lastShardPage.shard]}.`;
    let failing = true;
    await page.context().route(
      (url) => url.pathname.includes(shard),
      (route) => (failing ? route.fulfill({ status: 500, body: 'Internal Server Error' }) : route.fallback()),
    );
    await page.evaluate((h) => {
      const link = document.createElement('a');
      link.href = h;
      link.textContent = 'into the last shard';
      document.querySelector('#page-content')?.append(link);
      link.click();
    }, `/docs${lastShardPage.route}`);
    const view = page.locator('.page-error');
    await view.waitFor();
    expect(await view.getAttribute('data-error-type')).toBe('error');
    expect(await view.innerText()).toMatch(/HTTP 500/);
    failing = false;
    await view.getByRole('button', { name: 'Retry' }).click();
    await page.waitForFunction(
      (t) => document.querySelector('#main-content h1')?.textContent?.replace(/#$/, '') === t,
      lastShardPage.title,
    );
  });
});
