import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, POLLED, useBrowser } from './browser';
import { useServedTree } from './preview';

const { open, base } = useBrowser();

async function h1Becomes(page: Page, title: string): Promise<void> {
  await page.waitForFunction(
    (t) => document.querySelector('#main-content h1')?.textContent?.replace(/#$/, '') === t,
    title,
    POLLED,
  );
}

/** Clicks like a script would: no pointer movement, so no hover prefetch. */
async function domClick(page: Page, selector: string): Promise<void> {
  await page.evaluate((s) => (document.querySelector(s) as HTMLElement).click(), selector);
}

const meta = (page: Page, property: string) => page.getAttribute(`meta[property="${property}"]`, 'content');

describe('Open Graph tags', () => {
  it('describe each page, in the prerendered HTML and after a client-side navigation', async () => {
    const { page } = await open('/docs/limits/', { javaScriptEnabled: false });
    expect(await meta(page, 'og:type')).toBe('website');
    expect(await meta(page, 'og:title')).toBe('Limits | Pipedream Docs');
    expect(await meta(page, 'og:url')).toBe('https://pipedream.com/docs/limits/');
    const description = await page.getAttribute('meta[name="description"]', 'content');
    expect(description).toMatch(/\w{3}/);
    expect(await meta(page, 'og:description')).toBe(description);
    await page.context().close();

    const live = (await open('/docs/limits/')).page;
    await hydrated(live);
    const limitsDescription = await meta(live, 'og:description');
    await live.click('nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(live, 'Pricing');
    // The head's tags follow once the new page has been painted.
    await expect.poll(() => meta(live, 'og:title')).toBe('Pricing | Pipedream Docs');
    expect(await meta(live, 'og:url')).toBe('https://pipedream.com/docs/pricing/');
    const pricingDescription = await meta(live, 'og:description');
    expect(pricingDescription).toBe(await live.getAttribute('meta[name="description"]', 'content'));
    expect(pricingDescription).toMatch(/\w{3}/);
    expect(pricingDescription).not.toBe(limitsDescription);
    // One tag of each, updated in place.
    expect(await live.locator('meta[property="og:title"]').count()).toBe(1);
    expect(await live.locator('meta[property="og:url"]').count()).toBe(1);
  });
});

describe('frontmatter that changes the page frame', () => {
  const TREE = {
    '_site.yaml': `title: Frame Docs
siteUrl: https://docs.example.com
lang: en-US
sidebar:
  - text: Guide
    items: [/, /alpha/, /beta/, /gamma/, /delta/]
`,
    'README.md': '# Home\n\nStart here.\n',
    'alpha.md': '---\nlang: de-DE\nprev: false\n---\n\n# Alpha\n\nAuf Deutsch.\n',
    'beta.md': '---\nnext: /delta/\n---\n\n# Beta\n\nSkips a page.\n',
    'gamma.md': '# Gamma\n\nIn order.\n',
    'delta.md': '# Delta\n\nThe end.\n',
  };
  const site = useServedTree(TREE);

  const prevNext = (page: Page) =>
    page.locator('.prev-next a').evaluateAll((links) => links.map((a) => `${a.className} ${a.getAttribute('href')}`));

  it('sets <html lang> from the page, on a direct load and after navigations', async () => {
    const { page } = await open();
    await page.goto(`${site.url}/docs/alpha/`);
    expect(await page.getAttribute('html', 'lang')).toBe('de-DE');
    await hydrated(page);
    expect(await page.getAttribute('html', 'lang')).toBe('de-DE');
    await page.click('.prev-next a.next');
    await h1Becomes(page, 'Beta');
    expect(await page.getAttribute('html', 'lang')).toBe('en-US');
    await page.click('.prev-next a.prev');
    await h1Becomes(page, 'Alpha');
    expect(await page.getAttribute('html', 'lang')).toBe('de-DE');
  });

  it('hides "Previous" with prev: false and points "Next" where next: says', async () => {
    const { page } = await open();
    await page.goto(`${site.url}/docs/alpha/`);
    // Alpha follows Home in the sidebar, but hides its "Previous" link.
    expect(await prevNext(page)).toEqual(['next /docs/beta/']);
    await page.goto(`${site.url}/docs/beta/`);
    // Beta's "Next" skips Gamma for Delta, in the prerendered page and once the app runs.
    expect(await prevNext(page)).toEqual(['prev /docs/alpha/', 'next /docs/delta/']);
    expect(await page.textContent('.prev-next a.next .prev-next-title')).toBe('Delta');
    await hydrated(page);
    await page.click('nav#sidebar a[href="/docs/gamma/"]');
    await h1Becomes(page, 'Gamma');
    expect(await prevNext(page)).toEqual(['prev /docs/beta/', 'next /docs/delta/']);
    await page.click('nav#sidebar a[href="/docs/beta/"]');
    await h1Becomes(page, 'Beta');
    expect(await prevNext(page)).toEqual(['prev /docs/alpha/', 'next /docs/delta/']);
    await page.click('nav#sidebar a[href="/docs/alpha/"]');
    await h1Becomes(page, 'Alpha');
    expect(await prevNext(page)).toEqual(['next /docs/beta/']);
  });
});

describe('the progress bar', () => {
  it('stays hidden for the first 200 ms of a navigation, shows after, and goes once the page arrives', async () => {
    const { page } = await open();
    await page.clock.install();
    await page.goto(`${base()}/docs/limits/`);
    await hydrated(page);
    // A page whose link is neither on screen nor under the pointer, so nothing has prefetched it.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route(/\/page\.quickstart\.hello-world\.[0-9a-f]{8}\.html$/, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1000);
    const bar = page.locator('.progress-bar');
    const phase = () => bar.getAttribute('data-phase');
    const opacity = () => bar.evaluate((e) => getComputedStyle(e).opacity);

    await domClick(page, 'nav#sidebar a[href="/docs/quickstart/hello-world/"]');
    await expect.poll(() => asked).toBe(true);
    await page.clock.runFor(150);
    expect(await phase()).toBe('idle');
    expect(await opacity()).toBe('0');
    await page.clock.runFor(100);
    expect(await phase()).toBe('loading');
    expect(await opacity()).toBe('1');
    expect(await bar.getAttribute('aria-hidden')).toBe('false');

    release();
    // The page arrives; the bar finishes and fades (its timers run on the paused clock, moved on here).
    for (const until = Date.now() + 20_000; Date.now() < until && (await phase()) === 'loading';) {
      await page.clock.runFor(10);
    }
    await h1Becomes(page, 'Hello, world');
    expect(await phase()).toBe('done');
    await page.clock.runFor(500);
    expect(await phase()).toBe('idle');
    expect(await bar.getAttribute('aria-hidden')).toBe('true');
    // The fade itself is a CSS transition, on the browser's real timeline rather than the page's clock.
    await expect.poll(opacity).toBe('0');
  });
});

describe('sidebar and table of contents', () => {
  it('scrolls the current page into view in the sidebar on a direct load far down the list', async () => {
    const { page } = await open('/docs/orgs/sso/okta/');
    await hydrated(page);
    await page.waitForFunction(
      () => {
        const sidebar = document.querySelector('nav#sidebar')?.getBoundingClientRect();
        const current = document.querySelector('nav#sidebar a[aria-current="page"]')?.getBoundingClientRect();
        return !!sidebar && !!current && current.top >= sidebar.top && current.bottom <= sidebar.bottom;
      },
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.getAttribute('nav#sidebar a[aria-current="page"]', 'href')).toBe('/docs/orgs/sso/okta/');
    expect(await page.locator('nav#sidebar').evaluate((e) => e.scrollTop)).toBeGreaterThan(0);
    // Only the sidebar scrolled: the page itself still starts at the top.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('shows the on-page table of contents on a wide screen and not on a 1000 px one', async () => {
    const wide = (await open('/docs/limits/', { viewport: { width: 1280, height: 800 } })).page;
    await hydrated(wide);
    expect(await wide.locator('.toc nav[aria-label="On this page"]').isVisible()).toBe(true);
    expect(await wide.locator('.toc a').count()).toBeGreaterThan(5);
    expect(await wide.locator('.toc a').first().isVisible()).toBe(true);

    const narrow = (await open('/docs/limits/', { viewport: { width: 1000, height: 800 } })).page;
    await hydrated(narrow);
    expect(await narrow.locator('.toc').isVisible()).toBe(false);
    expect(await narrow.locator('.toc a').first().isVisible()).toBe(false);
    // The content keeps the room instead.
    expect(await narrow.locator('#page-content').isVisible()).toBe(true);
  });
});
