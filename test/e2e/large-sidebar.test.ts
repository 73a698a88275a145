import { describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { FOLD_SIDEBAR_ABOVE } from '../../src/client/components/Sidebar';
import { shardCount, shardOf } from '../../src/shared/site-data';
import { hydrated, useBrowser } from './browser';
import { useServedTree } from './preview';

/**
 * A sidebar past FOLD_SIDEBAR_ABOVE entries (here a generated one: four folders of 80 pages, no
 * _site.yaml) keeps only the current page's group open, in the prerendered HTML as in the app, so no
 * page's HTML carries every link of the site; the entries of a folded group are loaded when it is opened.
 */
const { open } = useBrowser();
const FOLDERS = ['alpha', 'beta', 'gamma', 'delta'];
const PER_FOLDER = 80;
const files: Record<string, string> = { 'README.md': '# Home\n\nStart here.\n' };
for (const folder of FOLDERS) {
  for (let i = 1; i <= PER_FOLDER; i++) files[`${folder}/page-${i}.md`] = `# ${folder} ${i}\n\nText of page ${i}.\n`;
}
const site = useServedTree(files);

describe('a large sidebar', () => {
  it('is large enough to fold', () => {
    expect(FOLDERS.length * PER_FOLDER).toBeGreaterThan(FOLD_SIDEBAR_ABOVE);
  });

  it("ships only the current group's links in each page's HTML", async () => {
    const html = await (await fetch(`${site.url}/docs/beta/page-3/`)).text();
    expect(html).toContain('href="/docs/beta/page-80/"');
    expect(html).not.toContain('href="/docs/alpha/page-1/"');
    expect(html).not.toContain('href="/docs/gamma/page-80/"');
  });

  it('opens a folded group on request, loading its entries then, and follows the reader to the group of the page shown', async () => {
    const { page, problems, requests } = await open(undefined);
    await page.goto(`${site.url}/docs/beta/page-3/`);
    await hydrated(page);
    const gamma = page.locator('button.sidebar-fold', { hasText: /gamma/i });
    expect(await gamma.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('nav#sidebar a[href="/docs/gamma/page-7/"]').count()).toBe(0);
    // Distinct files: the page's own group, preloaded as the app starts, may be asked for again by the app
    // (from the cache) after the takeover, later on a busy machine.
    const groupFiles = () => [...new Set(requests.filter((u) => /\/assets\/js\/sidebar\.[0-9a-f]{8}\.json$/.test(u)))];
    const before = groupFiles().length;
    await gamma.click();
    expect(await gamma.getAttribute('aria-expanded')).toBe('true');
    await page.click('nav#sidebar a[href="/docs/gamma/page-7/"]');
    // Only the opened group's entries were fetched: the page's own group came with the page.
    expect(groupFiles().length).toBe(before + 1);
    await page.waitForFunction(() => document.querySelector('#main-content h1')?.textContent?.startsWith('gamma 7'));
    // The new page's group is open and marks it; the group left behind folds again.
    expect(await page.getAttribute('nav#sidebar a[aria-current="page"]', 'href')).toBe('/docs/gamma/page-7/');
    expect(await page.locator('nav#sidebar a[href="/docs/beta/page-3/"]').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('says why a folded group could not be loaded, and its Retry loads it', async () => {
    const { page, problems } = await open(undefined);
    await page.goto(`${site.url}/docs/beta/page-3/`);
    await hydrated(page);
    const groupFile = /\/assets\/js\/sidebar\.[0-9a-f]{8}\.json$/;
    await page.route(groupFile, (route) => route.fulfill({ status: 500, body: 'down' }));
    const delta = page.locator('button.sidebar-fold', { hasText: /delta/i });
    await delta.click();
    const failure = page.locator('nav#sidebar .sidebar-error[role="alert"]');
    await failure.waitFor();
    expect(await failure.getAttribute('data-error-type')).toBe('error');
    expect(await failure.textContent()).toContain('HTTP 500');
    await page.unroute(groupFile);
    await failure.locator('button', { hasText: 'Retry' }).click();
    await page.locator('nav#sidebar a[href="/docs/delta/page-80/"]').waitFor();
    expect(await failure.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("asks for a listed page's fragment as the pointer arrives, beside the route shard that names it", async () => {
    const { page, problems, requests } = await open(undefined);
    await page.goto(`${site.url}/docs/beta/page-3/`);
    await hydrated(page);
    // A page of the same group whose record is in a route shard the tab has not read.
    const shards = shardCount(1 + FOLDERS.length * PER_FOLDER);
    const n = Array.from({ length: PER_FOLDER }, (_, i) => i + 1).find(
      (i) => shardOf(`/beta/page-${i}/`, shards) !== shardOf('/beta/page-3/', shards),
    );
    const held: Route[] = [];
    const shardFile = /\/assets\/js\/routes\.[0-9a-f]+\.json$/;
    await page.route(shardFile, (route) => void held.push(route));
    await page.hover(`nav#sidebar a[href="/docs/beta/page-${n}/"]`);
    const fragment = new RegExp(`/assets/js/page\\.beta\\.page-${n}\\.[0-9a-f]{8}\\.html$`);
    await expect.poll(() => requests.some((u) => fragment.test(u)), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => held.length, { timeout: 10_000 }).toBeGreaterThan(0);
    for (const route of held.splice(0)) await route.continue();
    await page.unroute(shardFile);
    await page.click(`nav#sidebar a[href="/docs/beta/page-${n}/"]`);
    await page.waitForFunction(
      (want) => document.querySelector('#main-content h1')?.textContent?.startsWith(want),
      `beta ${n}`,
    );
    expect(requests.filter((u) => fragment.test(u))).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
