import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';

const { open } = useBrowser();

/** The shards the search entry names; a query fetches those it reaches. */
const SEARCH_SHARD = /\/assets\/js\/search\/[a-z]+\.\d+\.[0-9a-f]{8}\.json$/;

describe('search after a damaged shard', () => {
  it('asks afresh on Retry, even while damaged answers asked for before it are still arriving', async () => {
    const { page, problems } = await open('/docs/limits/');
    await hydrated(page);
    // Each shard answers damaged: at once the first time it is asked for, and late when asked for again
    // before Retry (the query the reader typed on to asks again for a file that failed), as a slow server's
    // answer would arrive after the reader has already pressed Retry.
    let damaged = true;
    let release = () => {};
    const late = new Promise<void>((resolve) => (release = resolve));
    const asked = new Set<string>();
    let held = 0;
    const damage = async (route: Route) => {
      const url = route.request().url();
      const body = await (await route.fetch()).text();
      if (asked.has(url)) {
        held++;
        await late;
      }
      asked.add(url);
      await route.fulfill({ status: 200, contentType: 'application/json', body: body.slice(0, body.length >> 1) });
    };
    await page.context().route(SEARCH_SHARD, (route) => (damaged ? damage(route) : route.fallback()));
    await page.keyboard.press('/');
    await page.locator('.search-dialog input[role="combobox"]').fill('okta');
    const failed = page.locator('.search-failed');
    await failed.waitFor();
    await expect.poll(() => held, { message: 'a damaged answer is on its way at Retry' }).toBeGreaterThan(0);

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
