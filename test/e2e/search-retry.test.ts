import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, searchDialogChunk, useBrowser } from './browser';

const { open, base } = useBrowser();

/** The shards the search entry names; a query fetches those it reaches. */
const SEARCH_SHARD = /\/assets\/js\/search\/[a-z]+\.\d+\.[0-9a-f]{8}\.json$/;
const LETTER_FILE = /\/search\/letters\.\d+\./;

describe('search after a damaged shard', () => {
  it('asks afresh on Retry, even while damaged answers asked for before it are still arriving', async () => {
    const { page, problems } = await open('/docs/limits/');
    await hydrated(page);
    // Every shard answers damaged. A letter file (the dialog asks for them as it opens, and a query needs
    // one) answers late, as a slow server's would, after the reader has pressed Retry; a term file at once,
    // which fails the query while the letter file it also needs is still on its way.
    let damaged = true;
    let release = () => {};
    const late = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const damage = async (route: Route) => {
      const body = await (await route.fetch()).text();
      if (LETTER_FILE.test(route.request().url())) {
        held++;
        await late;
      }
      await route.fulfill({ status: 200, contentType: 'application/json', body: body.slice(0, body.length >> 1) });
    };
    await page.context().route(SEARCH_SHARD, (route) => (damaged ? damage(route) : route.fallback()));
    await page.keyboard.press('/');
    await page.locator('.search-dialog input[role="combobox"]').fill('okta');
    const failed = page.locator('.search-failed');
    await failed.waitFor();
    expect(held, 'a damaged letter file is on its way at Retry').toBeGreaterThan(0);

    damaged = false;
    await failed.getByRole('button', { name: 'Retry' }).click();
    release();
    await page.waitForFunction(() =>
      /result/.test(document.querySelector('.search-dialog [role="status"]')?.textContent ?? ''),
    );
    const hits = await page.locator('.search-hit').evaluateAll((all) => all.map((h) => h.getAttribute('data-url')));
    expect(hits[0]).toBe('/orgs/sso/okta/');
    expect(problems).toEqual([]);
  });
});

describe("search after its dialog's chunk failed", () => {
  it('asks afresh on Retry, even when the pointer came over the search button while the chunk still failed', async () => {
    const { page, problems } = await open();
    // The dialog's chunk answers 503, under any query (a retry adds one), until the server is back. The
    // route is in place before the page loads (see chunk-timeout.test.ts), while the chunk is not known.
    let chunk = '';
    let failing = true;
    const asked: string[] = [];
    await page.route(
      (url) => chunk !== '' && url.href.split('?')[0] === chunk,
      (route) => {
        asked.push(route.request().url());
        return failing ? route.fulfill({ status: 503, body: 'busy' }) : route.fallback();
      },
    );
    await page.goto(`${base()}/docs/limits/`);
    await hydrated(page);
    chunk = await searchDialogChunk(page);
    await page.keyboard.press('/');
    const box = page.locator('.chunk-error');
    await box.waitFor();
    const askedBeforeHover = asked.length;
    // A pointer over the search button asks for the dialog's code ahead of a click, but not once it has
    // failed: that request would meet the fault still there, and the Retry below would only join it.
    await page.hover('.search-button');
    await page.locator('.search-button').focus();
    // A request the page makes after those: one they made would have reached the server before it answers.
    await page.evaluate(() => fetch(location.href, { method: 'HEAD' }));
    expect(asked.length, 'the pointer asked for the failed chunk').toBe(askedBeforeHover);

    failing = false;
    await box.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.search-dialog input[role="combobox"]').fill('okta');
    await page.locator('.search-hit').first().waitFor();
    expect(await page.locator('.chunk-error').count()).toBe(0);
    // React reports the error its boundary caught; nothing else went wrong.
    expect(problems.filter((p) => !p.startsWith('ChunkLoadError: Loading chunk search-dialog failed.'))).toEqual([]);
  });
});
