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
    // The first shard answers damaged at once; the others the same, but only when released: late, as a
    // slow server's would, after the reader has already pressed Retry.
    let damaged = true;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let answered = 0;
    const damage = async (route: Route) => {
      const body = await (await route.fetch()).text();
      if (answered++ > 0) await held;
      await route.fulfill({ status: 200, contentType: 'application/json', body: body.slice(0, body.length >> 1) });
    };
    await page.context().route(SEARCH_SHARD, (route) => (damaged ? damage(route) : route.fallback()));
    await page.keyboard.press('/');
    await page.locator('.search-dialog input[role="combobox"]').fill('okta');
    const failed = page.locator('.search-failed');
    await failed.waitFor();
    expect(answered, 'the query asked for one shard only').toBeGreaterThan(1);

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
