import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';
import { useServedTree } from './preview';

const { open, base } = useBrowser();

const TAG_MANAGER = 'https://www.googletagmanager.com';

const TREE = {
  '_site.yaml': `title: Tagged Docs
description: A site with analytics.
siteUrl: https://docs.example.com
analyticsId: GTM-TEST123
sidebar:
  - text: Guide
    items: [/, /guide/]
`,
  'README.md': '# Home\n\nWelcome. Read the [guide](/guide/) or visit [the platform](https://example.com/platform).\n',
  'guide/README.md': '# Guide\n\nHow to start.\n\n## Installer\n\nRun the installer once.\n',
};

type Pushed = Record<string, unknown> & { event?: string };

const dataLayer = (page: Page) =>
  page.evaluate(() => (window as unknown as { dataLayer?: Pushed[] }).dataLayer?.map((e) => ({ ...e })));

/** Waits until the data layer holds an event matching `match`, and returns it. */
async function pushed(page: Page, match: Pushed): Promise<Pushed> {
  const handle = await page.waitForFunction(
    (m) =>
      (window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer?.find((e) =>
        Object.entries(m).every(([k, v]) => e[k] === v),
      ),
    match,
    { timeout: 10_000 },
  );
  return (await handle.jsonValue()) as Pushed;
}

/** Clicks a link the way a reader does, but keeps the browser on this page when the link leaves the site. */
async function clickWithoutLeaving(page: Page, selector: string): Promise<void> {
  await page.evaluate(() => window.addEventListener('click', (e) => e.preventDefault(), { once: true }));
  await page.click(selector);
}

describe('analytics with an id configured', () => {
  const site = useServedTree(TREE);

  it('loads the tag manager under the CSP and records page views, search and outbound links', async () => {
    const { page, problems, requests } = await open();
    // Nothing leaves the machine: the container script is answered here, every other origin refused.
    let containerLoads = 0;
    await page.context().route(
      (url) => url.origin !== new URL(site.url).origin,
      (route) => {
        if (!route.request().url().startsWith(`${TAG_MANAGER}/gtm.js`)) return route.abort();
        containerLoads += 1;
        return route.fulfill({ contentType: 'text/javascript', body: 'window.containerRan = true;' });
      },
    );
    const response = await page.goto(`${site.url}/docs/`);
    expect(response?.headers()['content-security-policy']).toContain(`script-src 'self' ${TAG_MANAGER}`);
    await hydrated(page);

    const start = await pushed(page, { event: 'gtm.js' });
    expect(typeof start['gtm.start']).toBe('number');
    expect(Math.abs(Date.now() - Number(start['gtm.start']))).toBeLessThan(60_000);
    await pushed(page, { event: 'page_view', page_path: '/docs/', page_title: 'Home | Tagged Docs' });
    // The start event comes before anything else the app records.
    expect((await dataLayer(page))?.[0]?.event).toBe('gtm.js');
    await page.waitForFunction(() => (window as unknown as { containerRan?: boolean }).containerRan === true);
    expect(containerLoads).toBe(1);
    expect(requests.filter((u) => u.startsWith(TAG_MANAGER))).toEqual([`${TAG_MANAGER}/gtm.js?id=GTM-TEST123`]);

    await clickWithoutLeaving(page, '#page-content a[href="https://example.com/platform"]');
    await pushed(page, { event: 'outbound_link', url: 'https://example.com/platform' });

    await page.click('nav#sidebar a[href="/docs/guide/"]');
    await pushed(page, { event: 'page_view', page_path: '/docs/guide/', page_title: 'Guide | Tagged Docs' });

    await page.keyboard.press('/');
    await page.locator('.search-dialog input').fill('installer');
    await page.locator('.search-hit').first().waitFor();
    await page.keyboard.press('Enter');
    const search = await pushed(page, { event: 'search', query: 'installer' });
    expect(search['result']).toMatch(/^\/guide\//);

    const views = (await dataLayer(page))?.filter((e) => e.event === 'page_view').map((e) => e['page_path']);
    expect(views?.slice(0, 2)).toEqual(['/docs/', '/docs/guide/']);
    expect(problems).toEqual([]);
  });
});

describe('analytics without an id (the real site)', () => {
  it('creates no data layer and sends nothing to any other origin', async () => {
    const { page, problems, requests } = await open('/docs/limits/');
    await hydrated(page);
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await page.waitForFunction(() => document.querySelector('#main-content h1')?.textContent?.startsWith('Pricing'));
    await page.keyboard.press('/');
    await page.locator('.search-dialog input').fill('okta');
    await page.locator('.search-hit').first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/docs/orgs/sso/okta/');
    await page.click('.version-button');
    await clickWithoutLeaving(page, '#version-list a[href^="https://"]');

    expect(await page.evaluate(() => 'dataLayer' in window)).toBe(false);
    expect(await page.locator(`script[src^="${TAG_MANAGER}"]`).count()).toBe(0);
    const origin = new URL(base()).origin;
    expect(requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
