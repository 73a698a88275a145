import { describe, expect, it } from 'vitest';
import { hydrated, searchDialogChunk, useBrowser } from './browser';

const { open, base } = useBrowser();

const CHUNK = /\/assets\/js\/chunk\.[A-Z0-9]+\.js$/;

describe('a script chunk that never arrives', () => {
  it('fails as "timeout" after 120000 ms, names the file, and Retry loads it', async () => {
    const { page, problems } = await open();
    await page.clock.install();
    // The search dialog's chunk is held and never answered. Its retry (under a fresh query) and every
    // other chunk are let through. The route is in place before the page loads: a page's first route,
    // added while it runs, can miss the request the page makes next (its frame keeps the loader it had
    // until the browser's new one reaches it), and '/' makes that request at once.
    let dialogChunk = '';
    let held = false;
    await page.route(CHUNK, (route) => {
      if (route.request().url() !== dialogChunk) return route.continue();
      held = true;
      return undefined;
    });
    await page.goto(`${base()}/docs/limits/`);
    await hydrated(page);
    dialogChunk = await searchDialogChunk(page);
    await page.keyboard.press('/');
    // The shortcut opens the dialog, whose render asks for the chunk: on a busy machine that takes more
    // than the poll's default second.
    await expect.poll(() => held, { timeout: 15_000 }).toBe(true);

    // The page's clock ran on in real time since the request started (a few seconds on a busy machine),
    // so "not yet" is checked with 10 s to spare and "by now" just after 120 s.
    await page.clock.runFor(110_000);
    expect(await page.locator('.chunk-error').count()).toBe(0);
    await page.clock.runFor(10_500);
    const box = page.locator('.chunk-error');
    await box.waitFor();
    expect(await box.getAttribute('data-error-type')).toBe('timeout');
    const text = (await box.textContent()) ?? '';
    expect(text).toContain('Search could not be loaded. The server took too long to answer.');
    expect(text).toContain('Loading chunk search-dialog failed.');
    expect(text).toContain(dialogChunk);

    await box.locator('button', { hasText: 'Retry' }).click();
    await page.locator('.search-dialog input').fill('okta');
    await page.locator('.search-hit').first().waitFor();
    expect(await page.locator('.chunk-error').count()).toBe(0);
    // React reports the error its boundary caught; nothing else went wrong.
    expect(problems.filter((p) => !p.startsWith('ChunkLoadError: Loading chunk search-dialog failed.'))).toEqual([]);
  });
});
