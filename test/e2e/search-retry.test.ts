import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';

const { open } = useBrowser();

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
