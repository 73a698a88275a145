import type { BrowserContext, Page } from 'playwright-core';
import { shardOf, shardUrl, type RouteShard, type ShardPage } from '../../src/shared/site-data';
import type { Manifest } from '../../src/shared/types';

/**
 * A new deployment's route shards, as the server would hold them, each named anew as if every one had
 * changed: a request for a new name gets the current deployment's shard of that place, its records passed
 * through `edit` (to point a page at a new fragment, say). Returns the new names, for the new manifest's
 * `shards`.
 */
export async function routeNewShards(
  context: BrowserContext | Page,
  current: Manifest,
  newHash: string,
  edit: (page: ShardPage) => ShardPage = (page) => page,
): Promise<string[]> {
  const base = current.site.base;
  const names = current.shards ?? [];
  const renamed = names.map((_, n) => ((parseInt(newHash, 16) + n + 1) >>> 0).toString(16).padStart(8, '0'));
  const oldOf = new Map(renamed.map((name, n) => [name, names[n] ?? '']));
  await context.route(/\/routes\.[0-9a-f]+\.json(\?.*)?$/, async (route) => {
    const name = /routes\.([0-9a-f]+)\.json/.exec(route.request().url())?.[1] ?? '';
    const old = oldOf.get(name);
    if (old === undefined) return route.fallback();
    const response = await route.fetch({ url: new URL(shardUrl(base, old), route.request().url()).href });
    const shard = (await response.json()) as RouteShard;
    await route.fulfill({ json: { pages: shard.pages.map(edit) } satisfies RouteShard });
  });
  return renamed;
}

/** The record of `route` (without the base) as the deployment's route shard holds it. */
export async function shardRecord(page: Page, manifest: Manifest, route: string): Promise<ShardPage> {
  const names = manifest.shards ?? [];
  const url = shardUrl(manifest.site.base, names[shardOf(route, names.length)] ?? '');
  const shard = (await page.evaluate((u) => fetch(u).then((r) => r.json()), url)) as RouteShard;
  const record = shard.pages.find((p) => p.path === route);
  if (!record) throw new Error(`${route} is not in its route shard ${url}`);
  return record;
}
