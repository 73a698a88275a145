import type { BrowserContext, Page } from 'playwright-core';
import { shardOf, shardUrl, type RouteShard, type ShardPage } from '../../src/shared/site-data';
import type { Manifest } from '../../src/shared/types';

/**
 * A new deployment's route shards, as the server would hold them: every request for a shard named by
 * `newHash` gets the current deployment's shard of that number under the new hash, its records passed
 * through `edit` (to point a page at a new fragment, say).
 */
export async function routeNewShards(
  context: BrowserContext | Page,
  current: Manifest,
  newHash: string,
  edit: (page: ShardPage) => ShardPage = (page) => page,
): Promise<void> {
  await context.route(new RegExp(`/routes\\.\\d+\\.${newHash}\\.json(\\?.*)?$`), async (route) => {
    const n = Number(/routes\.(\d+)\./.exec(route.request().url())?.[1]);
    const response = await route.fetch({ url: new URL(shardUrl(current, n), route.request().url()).href });
    const old = (await response.json()) as RouteShard;
    await route.fulfill({ json: { hash: newHash, pages: old.pages.map(edit) } satisfies RouteShard });
  });
}

/** The record of `route` (without the base) as the deployment's route shard holds it. */
export async function shardRecord(page: Page, manifest: Manifest, route: string): Promise<ShardPage> {
  const url = shardUrl(manifest, shardOf(route, manifest.shards ?? 1));
  const shard = (await page.evaluate((u) => fetch(u).then((r) => r.json()), url)) as RouteShard;
  const record = shard.pages.find((p) => p.path === route);
  if (!record) throw new Error(`${route} is not in its route shard ${url}`);
  return record;
}
