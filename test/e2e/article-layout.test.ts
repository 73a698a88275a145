import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, layoutShifts, recordLayoutShifts, useBrowser } from './browser';

const { open, base } = useBrowser();

/**
 * For each code block and table of the page, whether the browser renders it: one out of view is skipped
 * (`content-visibility`), so a long page lays out and paints its first screen only.
 */
const rendered = (page: Page) =>
  page.$$eval('#page-content :is(.code-block, .table-wrap)', (blocks) =>
    blocks.map((block) => ({
      top: block.getBoundingClientRect().top,
      // A skipped block is laid out as a box of its own, its contents are not.
      rendered: block.firstElementChild?.checkVisibility({ contentVisibilityAuto: true }) ?? true,
    })),
  );

describe('the article', () => {
  it('lays out the code blocks and tables in view, not those far below, on a first load and after a click', async () => {
    const { page, problems } = await open('/docs/api/rest/');
    await hydrated(page);
    const first = await rendered(page);
    expect(first.filter((b) => b.top < 800).every((b) => b.rendered)).toBe(true);
    expect(first.filter((b) => b.top > 3 * 800).length).toBeGreaterThan(5);
    expect(first.filter((b) => b.top > 3 * 800).some((b) => b.rendered)).toBe(false);

    await page.click('nav#sidebar a[href="/docs/limits/"]');
    await page.waitForFunction(() => /Limits/.test(document.querySelector('#main-content h1')?.textContent ?? ''));
    const after = await rendered(page);
    expect(after.filter((b) => b.top > 3 * 800).some((b) => b.rendered)).toBe(false);
    expect(problems).toEqual([]);
  });

  it('lands back on the content the reader scrolled to, laid out whole for it', async () => {
    const { page } = await open('/docs/api/rest/');
    await hydrated(page);
    // A reader's scroll, a screen at a time, past tables and code blocks that were out of view at the load.
    await page.mouse.move(640, 400);
    for (let i = 0; i < 10; i++) {
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(60);
    }
    await page.waitForTimeout(300);
    const place = await page.evaluate(() => {
      const heading = [...document.querySelectorAll<HTMLElement>('#page-content :is(h2, h3)[id]')].find(
        (h) => h.getBoundingClientRect().top > 0,
      )!;
      return { id: heading.id, top: heading.getBoundingClientRect().top, scrollY: window.scrollY };
    });
    expect(place.scrollY).toBeGreaterThan(5000);
    const headingTop = (id: string) =>
      page.evaluate((i) => document.getElementById(i)!.getBoundingClientRect().top, id);

    await page.click('nav#sidebar a[href="/docs/limits/"]');
    await page.waitForFunction(() => /Limits/.test(document.querySelector('#main-content h1')?.textContent ?? ''));
    await page.goBack();
    await page.waitForFunction(() => /REST/.test(document.querySelector('#main-content h1')?.textContent ?? ''));
    await page.waitForFunction(() => document.documentElement.dataset['layout'] === undefined);
    await page.waitForTimeout(300);
    // Once painted, the blocks out of view are skipped again, at the sizes they were laid out at.
    expect(Math.abs((await headingTop(place.id)) - place.top)).toBeLessThan(5);
  });

  // The browser learns which skipped blocks are in view only after its first frame: one on the first screen
  // laid out at its guessed height would grow after that frame and push down what follows it.
  for (const path of ['/docs/limits/', '/docs/api/rest/']) {
    it(`shows ${path} on a phone with nothing moving, with the CPU four times slower`, async () => {
      const { page } = await open(undefined, { viewport: { width: 412, height: 823 } });
      await recordLayoutShifts(page);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(base() + path, { waitUntil: 'load' });
      await hydrated(page);
      await page.waitForTimeout(1000);
      const moved = (await layoutShifts(page)).reduce((sum, shift) => sum + shift, 0);
      expect(moved).toBeLessThan(0.01);
    });
  }
});
