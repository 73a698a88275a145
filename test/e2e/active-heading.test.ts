import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';

const { open, base } = useBrowser();

async function openWithClock(path: string): Promise<Page> {
  const { page } = await open();
  await page.clock.install();
  await page.goto(base() + path);
  await page.clock.runFor(50);
  await hydrated(page);
  // The page's clock would otherwise go on in real time, which a busy machine stretches past the throttle
  // between two steps of a test. Pausing it a second ahead also ends any reading a scroll started while the
  // page settled, so the next one starts with the test's own scroll.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  return page;
}

const hash = (page: Page) => page.evaluate(() => decodeURIComponent(location.hash));
const activeToc = (page: Page) =>
  page.evaluate(() => document.querySelector('.toc a.active')?.getAttribute('href') ?? null);

/**
 * Scrolls to `y` ('bottom': the end of the page) and waits for the browser's scroll event, so the page has
 * seen it: the event comes with the next frame, which the paused clock does not wait for.
 */
async function scrollTo(page: Page, y: number | 'bottom'): Promise<void> {
  await page.evaluate(
    (to) =>
      new Promise<void>((resolve) => {
        window.addEventListener('scroll', () => resolve(), { once: true });
        window.scrollTo(0, to === 'bottom' ? document.documentElement.scrollHeight : to);
      }),
    y,
  );
}

/** Scrolls the heading to the top, as `scrollTo` does. */
async function scrollToHeading(page: Page, id: string): Promise<void> {
  const top = await page.evaluate((i) => document.getElementById(i)!.getBoundingClientRect().top + window.scrollY, id);
  await scrollTo(page, top - 40);
}

describe('active heading', () => {
  it('follows the heading being read, throttled to 300 ms, replacing the URL hash', async () => {
    const page = await openWithClock('/docs/limits/');
    const length = await page.evaluate(() => history.length);
    await scrollToHeading(page, 'memory');
    await page.clock.runFor(250);
    expect(await hash(page)).toBe('');
    await page.clock.runFor(100);
    await page.waitForFunction(() => location.hash === '#memory');
    expect(await activeToc(page)).toBe('#memory');
    await scrollToHeading(page, 'daily-invocations');
    await page.clock.runFor(350);
    await page.waitForFunction(() => location.hash === '#daily-invocations');
    expect(await page.evaluate(() => history.length)).toBe(length);
  });

  it('clears the hash at the top and marks the last heading at the bottom', async () => {
    const page = await openWithClock('/docs/limits/');
    await scrollTo(page, 'bottom');
    await page.clock.runFor(350);
    await page.waitForFunction(() => location.hash === '#time-and-rate-limits');
    await scrollTo(page, 0);
    await page.clock.runFor(350);
    await page.waitForFunction(() => location.hash === '');
    expect(await activeToc(page)).toBeNull();
  });

  it('lets a clicked table-of-contents link win over the scroll handler', async () => {
    const page = await openWithClock('/docs/limits/');
    // The second-to-last heading sits near the bottom, where scrolling alone would mark the last one.
    const target = await page.evaluate(() => {
      const links = [...document.querySelectorAll('.toc a')];
      return links[links.length - 2]!.getAttribute('href')!;
    });
    await page.click(`.toc a[href="${target}"]`);
    await page.clock.runFor(350);
    await page.waitForFunction((t) => location.hash === t, target);
    expect(await activeToc(page)).toBe(target);
  });
});

describe('the active heading and navigation', () => {
  it('never redirects a navigation under way when the page being left reads its headings late', async () => {
    const page = await openWithClock('/docs/limits/');
    // The next page's fragment takes a while, so the Limits page's throttled reading fires mid-navigation.
    await page.route(/page\.api\.rest\./, async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });
    await scrollToHeading(page, 'function-payload-size');
    await page.evaluate(() => {
      const a = Object.assign(document.createElement('a'), { href: '/docs/api/rest/#pagination', id: 'go' });
      document.querySelector('#page-content')?.prepend(a);
      a.click();
    });
    await page.clock.runFor(400); // past the 300 ms throttle, while the fragment is still on its way
    await page.waitForFunction(() => /REST API/.test(document.querySelector('#main-content h1')?.textContent ?? ''));
    await page.clock.runFor(1000);
    expect(await hash(page)).toBe('#pagination');
    const top = await page.evaluate(() => document.getElementById('pagination')?.getBoundingClientRect().top ?? -1);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);
  });
});
