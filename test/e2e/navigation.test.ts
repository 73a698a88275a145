import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { holdBack, hydrated, POLLED, useBrowser } from './browser';

const { open, base } = useBrowser();

/** Resolves with the h1 text once it equals `title`. */
async function h1Becomes(page: Page, title: string): Promise<void> {
  await page.waitForFunction(
    (t) => document.querySelector('#main-content h1')?.textContent?.replace(/#$/, '') === t,
    title,
    POLLED,
  );
}

/** The fragment of the page the sidebar's Pricing link opens. */
const PRICING_FRAGMENT = /\/assets\/js\/page\.pricing\.[0-9a-f]{8}\.html$/;

/** Adds a link into the page content, for navigations a writer's link would cause. */
async function addLink(page: Page, href: string): Promise<void> {
  await page.evaluate((h) => {
    const a = document.createElement('a');
    a.href = h;
    a.id = 'test-link';
    a.textContent = 'test link';
    document.querySelector('#page-content')?.prepend(a);
  }, href);
}

/** Clicks like a script or keyboard would: no pointer movement, so no scrolling into view or hover prefetch. */
async function domClick(page: Page, selector: string): Promise<void> {
  await page.evaluate((s) => (document.querySelector(s) as HTMLElement).click(), selector);
}

describe('client-side navigation', () => {
  it('renders the next page in place, fetching only its fragment (and its route shard, when not loaded)', async () => {
    const { page, problems, requests } = await open('/docs/limits/');
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const before = requests.length;
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(page, 'Pricing');
    expect(page.url()).toMatch(/\/docs\/pricing\/$/);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    const fetched = requests.slice(before);
    expect(fetched.some((u) => /\/docs\/assets\/js\/page\.pricing\.[0-9a-f]{8}\.html$/.test(u))).toBe(true);
    const shard = /\/docs\/assets\/js\/routes\.[0-9a-f]{8}\.json$/;
    expect(fetched.some((u) => (u.endsWith('.json') && !shard.test(u)) || /\/docs\/pricing\/$/.test(u))).toBe(false);
    // The title and the head's tags follow once the new page has been painted.
    await expect.poll(() => page.title()).toBe('Pricing | Pipedream Docs');
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe('https://pipedream.com/docs/pricing/');
    expect(await page.getAttribute('meta[name="description"]', 'content')).toMatch(/\w/);
    expect(await page.getAttribute('nav#sidebar a[aria-current="page"]', 'href')).toBe('/docs/pricing/');
    expect(problems).toEqual([]);
  });

  it('prefetches the page under the pointer before the click', async () => {
    const { page, requests } = await open('/docs/limits/');
    await hydrated(page);
    await page.hover('nav#sidebar a[href="/docs/errors/"]');
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((e) => /page\.errors\./.test(e.name)),
    );
    const count = requests.filter((u) => /page\.errors\./.test(u)).length;
    await page.click('nav#sidebar a[href="/docs/errors/"]');
    await h1Becomes(page, 'Errors');
    expect(requests.filter((u) => /page\.errors\./.test(u)).length).toBe(count);
  });

  it('moves focus to the new heading and announces the page', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(page, 'Pricing');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[role="status"]')].some((s) => s.textContent?.includes('Pricing')),
    );
  });

  it('leaves focus in search when the reader opens it before the new page is focused', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    // The heading is focused in a background task once the new page is painted; on a busy machine that
    // task comes late. Held back here until the reader has opened search and typed.
    await page.evaluate(() => {
      const held = window as unknown as { focusTaskRan?: boolean };
      const scheduler = (globalThis as unknown as { scheduler: { postTask: (...a: unknown[]) => Promise<void> } })
        .scheduler;
      const post = scheduler.postTask.bind(scheduler);
      scheduler.postTask = (run, options) =>
        post(
          () =>
            new Promise<void>((resolve) =>
              setTimeout(() => {
                (run as () => void)();
                held.focusTaskRan = true;
                resolve();
              }, 700),
            ),
          options,
        );
    });
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(page, 'Pricing');
    await page.keyboard.press('/');
    await page.locator('.search-dialog input').waitFor();
    await page.keyboard.type('okta');
    await page.waitForFunction(() => (window as unknown as { focusTaskRan?: boolean }).focusTaskRan === true);
    await page.keyboard.type(' sso');
    expect(await page.locator('.search-dialog input').inputValue()).toBe('okta sso');
    // The page is still announced, and Escape still closes search.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[role="status"]')].some((s) => s.textContent?.includes('Pricing')),
    );
    await page.keyboard.press('Escape');
    await page.locator('.search-dialog').waitFor({ state: 'detached' });
  });

  it('keeps focus in search when the page being opened fails meanwhile', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    const fail = await holdBack(page, PRICING_FRAGMENT, 'fail');
    await domClick(page, 'nav#sidebar a[href="/docs/pricing/"]');
    await page.keyboard.press('/');
    await page.locator('.search-dialog input').waitFor();
    await page.keyboard.type('okta');
    fail();
    await page.locator('.page-error').waitFor();
    await page.keyboard.type(' sso');
    expect(await page.locator('.search-dialog input').inputValue()).toBe('okta sso');
  });

  it('gives focus to the new heading when search closes and the link it came from is gone', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    const deliver = await holdBack(page, PRICING_FRAGMENT);
    // A link of the page's text: the page that replaces it takes the link with it.
    await addLink(page, '/docs/pricing/');
    await page.focus('#test-link');
    await page.keyboard.press('Enter');
    await page.keyboard.press('/');
    await page.locator('.search-dialog input').waitFor();
    await page.keyboard.type('okta');
    deliver();
    await h1Becomes(page, 'Pricing');
    // The new page is announced once painted, when its heading would have taken focus: search kept it.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[role="status"]')].some((s) => s.textContent?.includes('Pricing')),
    );
    await page.keyboard.press('Escape');
    await page.locator('.search-dialog').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.closest('#main-content h1') !== null);
  });

  it('follows redirects, index.html and missing-slash links without an extra history entry', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    for (const [href, title, path] of [
      ['/docs/cron', 'Triggers', '/docs/workflows/steps/triggers/'],
      ['/docs/pricing', 'Pricing', '/docs/pricing/'],
      ['/docs/errors/index.html', 'Errors', '/docs/errors/'],
      ['/docs/what-is-pipedream/', 'Overview', '/docs/'],
    ] as const) {
      const length = await page.evaluate(() => history.length);
      await addLink(page, href);
      await page.click('#test-link');
      await h1Becomes(page, title);
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await page.evaluate(() => history.length)).toBe(length + 1);
    }
  });

  it('does nothing when the link points to the current page', async () => {
    const { page, requests } = await open('/docs/limits/');
    await hydrated(page);
    const length = await page.evaluate(() => history.length);
    const before = requests.length;
    await page.click('nav#sidebar a[href="/docs/limits/"]');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => history.length)).toBe(length);
    // Nothing at all is asked for, except other pages' fragments (and their route shards) that links in view
    // may prefetch meanwhile, and the navigation chunk that loads once the page is idle; never this page's own
    // shard, which its HTML preloaded.
    const own = (await page.getAttribute('link[rel="preload"][href*="/routes."]', 'href')) ?? '';
    const other = /\/(page\.(?!limits\.)[^/]+\.html|routes\.[0-9a-f]{8}\.json|chunk\.[A-Z0-9]+\.js)$/;
    expect(own).toMatch(/routes\.[0-9a-f]{8}\.json$/);
    expect(requests.slice(before).filter((u) => !other.test(u) || u.endsWith(own))).toEqual([]);
  });

  it('cancels a superseded navigation and never shows its content', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    await page.route(/page\.errors\./, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {});
    });
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(document.querySelector('#main-content h1')?.textContent ?? '')).observe(
        document.querySelector('#main-content')!,
        { childList: true, subtree: true, characterData: true },
      );
    });
    // Its fragment is asked for once its route shard is in (the shard may take a moment on a first visit).
    const errorsFragment = page.waitForRequest(/page\.errors\./);
    await domClick(page, 'nav#sidebar a[href="/docs/errors/"]');
    await errorsFragment;
    await page.waitForTimeout(100);
    await domClick(page, 'nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(page, 'Pricing');
    await page.waitForTimeout(1800);
    expect(new URL(page.url()).pathname).toBe('/docs/pricing/');
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.some((t) => t.startsWith('Errors'))).toBe(false);
    expect(failed.some((u) => /page\.errors\./.test(u))).toBe(true);
  });

  it('starts a new page at the top, at its anchor when it has one, and restores scroll on back', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.waitForTimeout(100);
    await domClick(page, '.prev-next a.next');
    await page.waitForFunction(() => !/Limits/.test(document.querySelector('#main-content h1')?.textContent ?? ''));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await h1Becomes(page, 'Limits');
    await page.waitForFunction(() => Math.abs(window.scrollY - 1500) < 5);
    await addLink(page, '/docs/api/rest/#pagination');
    await page.click('#test-link');
    await h1Becomes(page, 'REST API reference');
    await page.waitForFunction(() => {
      const top = document.getElementById('pagination')?.getBoundingClientRect().top ?? -1;
      return top >= 0 && top < 200;
    });
  });

  it('shows the progress bar only for slow navigations, and it finishes', async () => {
    const { page } = await open();
    // The errors page's fragment is held until the bar has shown, whoever asks for it first (a prefetch
    // of the links in view, or the click).
    const release = await holdBack(page, /page\.errors\./);
    await page.goto(`${base()}/docs/limits/`);
    await hydrated(page);
    // A navigation to a page already fetched (the hover prefetches it) is instant: no bar.
    await page.hover('nav#sidebar a[href="/docs/pricing/"]');
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((e) => /page\.pricing\./.test(e.name)),
    );
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(page, 'Pricing');
    expect(await page.getAttribute('.progress-bar', 'data-phase')).toBe('idle');
    await page.click('nav#sidebar a[href="/docs/errors/"]');
    await page.waitForSelector('.progress-bar[data-phase="loading"]');
    release();
    await h1Becomes(page, 'Errors');
    await page.waitForSelector('.progress-bar[data-phase="idle"]', { state: 'attached' });
  });
});

describe('layout', () => {
  it('closes the sidebar drawer after a navigation on a narrow screen', async () => {
    const { page } = await open('/docs/limits/', { viewport: { width: 375, height: 740 } });
    await hydrated(page);
    expect(await page.isVisible('nav#sidebar a[href="/docs/pricing/"]')).toBe(false);
    await page.click('button.menu-button');
    await page.click('nav#sidebar a[href="/docs/pricing/"]');
    await h1Becomes(page, 'Pricing');
    await page.waitForFunction(() => !document.querySelector('.layout')?.classList.contains('sidebar-open'));
  });

  it('offers the version menu with v2 marked New and v1', async () => {
    const { page } = await open('/docs/');
    await hydrated(page);
    await page.click('.version-button');
    const items = await page.locator('#version-list a').allTextContents();
    expect(items).toEqual(['v2New', 'v1']);
    expect(await page.getAttribute('#version-list a >> nth=1', 'href')).toMatch(/^https:\/\//);
    await page.keyboard.press('Escape');
    await expect(page.locator('#version-list').count()).resolves.toBe(0);
  });

  it('switches theme, remembers it, and applies it before the first paint', async () => {
    const { page } = await open('/docs/limits/', { colorScheme: 'light' });
    await hydrated(page);
    await page.click('.theme-toggle');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await page.goto(page.url(), { waitUntil: 'commit' });
    await page.waitForSelector('body', { state: 'attached' });
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await hydrated(page);
    expect(await page.getAttribute('.theme-toggle', 'aria-label')).toBe('Switch to light theme');
  });

  it('copies a code block with its button', async () => {
    const { page } = await open('/docs/api/auth/', { permissions: ['clipboard-read', 'clipboard-write'] });
    await hydrated(page);
    const code = await page.locator('.code-block pre code').first().textContent();
    await page.locator('.code-block .copy-code').first().click();
    await page.waitForFunction(() => document.querySelector('.code-block .copy-code')?.textContent === 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  });
});
