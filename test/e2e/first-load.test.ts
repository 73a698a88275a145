import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';

const { open, base } = useBrowser();

describe('first load', () => {
  it('arrives as complete HTML that reads without JavaScript', async () => {
    const { page } = await open('/docs/limits/', { javaScriptEnabled: false });
    await expect(page.textContent('#main-content h1')).resolves.toContain('Limits');
    await expect(page.locator('header .site-title').textContent()).resolves.toBe('Pipedream Docs');
    await expect(page.locator('nav#sidebar a[aria-current="page"]').textContent()).resolves.toBe('Limits');
    await expect(page.locator('.toc a').count()).resolves.toBeGreaterThan(5);
    await expect(page.locator('.prev-next a').count()).resolves.toBe(2);
    await expect(page.locator('#page-content').textContent()).resolves.toContain('512KB');
    expect(await page.title()).toBe('Limits | Pipedream Docs');
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe('https://pipedream.com/docs/limits/');
    expect(await page.getAttribute('html', 'lang')).toBe('en-US');
  });

  it('is taken over by the app without refetching the page or any error', async () => {
    const { page, problems, requests } = await open('/docs/limits/');
    await hydrated(page);
    const before = await page.locator('#page-content').innerHTML();
    expect(requests.filter((u) => /page\.limits\./.test(u))).toEqual([]);
    expect(requests.filter((u) => /manifest\.[0-9a-f]{8}\.json/.test(u))).toHaveLength(1);
    expect(await page.locator('#page-content').innerHTML()).toBe(before);
    expect(problems).toEqual([]);
  });

  it('paints with the stylesheet alone, then starts the app and fetches its data once', async () => {
    const { page, problems } = await open('/docs/limits/');
    await hydrated(page);
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return {
        paint,
        before: resources.filter((r) => r.startTime < paint).map((r) => new URL(r.name).pathname),
        after: resources.filter((r) => r.startTime >= paint).map((r) => new URL(r.name).pathname),
      };
    });
    expect(timing.paint).toBeGreaterThan(0);
    // The document's own requests: the boot script and the stylesheet (and the icon, which Chromium
    // fetches when it likes); none of the app's.
    expect(timing.before.filter((url) => !url.endsWith('/favicon.svg')).sort()).toEqual([
      expect.stringMatching(/^\/docs\/assets\/css\/app\.[0-9a-f]+\.css$/),
      expect.stringMatching(/^\/docs\/assets\/js\/theme\.[A-Z0-9]+\.js$/),
    ]);
    for (const file of [
      /\/entry\.[A-Z0-9]+\.js$/,
      /\/manifest\.[0-9a-f]{8}\.json$/,
      /\/routes\.\d+\.[0-9a-f]{8}\.json$/,
    ]) {
      expect(
        timing.after.filter((url) => file.test(url)),
        String(file),
      ).toHaveLength(1);
    }
    expect(problems).toEqual([]);
  });

  it('shows the not-found page inside the layout, with status 404', async () => {
    const { page, problems } = await open();
    const response = await page.goto(`${base()}/docs/no/such/page/`);
    expect(response?.status()).toBe(404);
    await hydrated(page);
    await expect(page.textContent('#main-content h1')).resolves.toBe('Page not found');
    await expect(page.locator('nav#sidebar a').count()).resolves.toBeGreaterThan(100);
    expect(await page.title()).toBe('Page not found | Pipedream Docs');
    expect(problems).toEqual([]);
  });
});
