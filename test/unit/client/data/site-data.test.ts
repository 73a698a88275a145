import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Deployment } from '../../../../src/client/data/deployment';
import { plainFiles, readRouteData } from '../../../../src/client/data/route-data';
import { screenFromData } from '../../../../src/client/data/screen-from-data';
import { ensureRouteData } from '../../../../src/client/data/site-data';
import { createSiteServer } from '../../../../src/node/serve/server';
import { splitForBrowser, type BrowserData } from '../../../../src/node/output/browser-data';
import { isChunkLoadError } from '../../../../src/shared/chunk-error';
import { recordRoutes } from '../../../../src/shared/paths';
import { manifestUrl, shardOf, shardUrl, sidebarGroupUrl } from '../../../../src/shared/site-data';
import { groupedSite } from '../../../helpers/grouped-site';

const BASE = '/docs/';

/** A site of `groups` sidebar groups of `perGroup` pages; past 300 entries its sidebar folds. */
const site = (hash: string, groups: number, perGroup: number, title?: string) =>
  groupedSite({ hash, groups, perGroup, title });

const deploymentOf = (data: BrowserData): Deployment => ({
  manifest: manifestUrl(data.data.core),
  hash: data.data.core.hash,
  shards: data.shards,
  site: { base: BASE },
});

describe('the site data queries', () => {
  let root: string;
  let server: http.Server;
  const requested: string[] = [];
  const folded = splitForBrowser(site('1111aaaa', 4, 80));
  const small = splitForBrowser(site('2222bbbb', 3, 10));
  const fileOf = (url: string) => path.join(root, 'dist', url.slice(BASE.length));

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'docs-site-data-'));
    for (const data of [folded, small]) {
      const files = new Map([[manifestUrl(data.data.core), data.manifestJson], ...data.files]);
      for (const [url, json] of files) {
        await mkdir(path.dirname(fileOf(url)), { recursive: true });
        await writeFile(fileOf(url), json);
      }
    }
    server = createSiteServer({ distDir: path.join(root, 'dist'), base: BASE, log: () => {} });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A browser resolves the app's URLs (with the base, no origin) against the page; Node's fetch needs the origin.
    const fetchFromSite = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      requested.push(url);
      return fetchFromSite(new URL(url, origin), init);
    });
  });

  afterAll(async () => {
    vi.unstubAllGlobals();
    await new Promise((resolve) => server.close(resolve));
    await rm(root, { recursive: true, force: true });
  });

  it('loads a route with the site core, its route shard and the folded sidebar groups that list it', async () => {
    const queryClient = new QueryClient();
    const deployment = deploymentOf(folded);
    const route = '/g2/page-7/';
    requested.length = 0;
    const { site: core, records } = await ensureRouteData(queryClient, deployment, recordRoutes(route));
    expect(core.shards).toEqual(folded.shards);
    expect(records.get(route)).toMatchObject({ title: 'Page 2.7', groups: [2] });
    expect(records.get(route)?.neighbours).toEqual({
      prev: { text: 'Page 2.6', link: '/g2/page-6/' },
      next: { text: 'Page 2.8', link: '/g2/page-8/' },
    });
    const shard = shardUrl(BASE, folded.shards[shardOf(route, folded.shards.length)] ?? '');
    const group = sidebarGroupUrl(BASE, core.sidebar[2]?.file ?? '');
    expect(requested.sort()).toEqual([deployment.manifest, shard, group].sort());
    // Each file is a query of its own, read once: a route of the same shard and group asks for nothing new.
    const sameShard = folded.data.shards[shardOf(route, folded.shards.length)]?.pages.find(
      (page) => page.path !== route && page.groups.includes(2),
    );
    requested.length = 0;
    await ensureRouteData(queryClient, deployment, [sameShard?.path ?? '']);
    expect(requested).toEqual([]);
  });

  it('loads no sidebar group file where the sidebar does not fold: the site core has the entries', async () => {
    const queryClient = new QueryClient();
    const deployment = deploymentOf(small);
    requested.length = 0;
    const { site: core, records } = await ensureRouteData(queryClient, deployment, ['/g1/page-3/']);
    expect(records.get('/g1/page-3/')?.groups).toEqual([1]);
    expect(core.sidebar[1]?.items).toHaveLength(10);
    expect(requested.filter((url) => url.includes('/sidebar.'))).toEqual([]);
  });

  it('gives the prerender the screen the app’s start reads from the files for a route', async () => {
    for (const data of [folded, small]) {
      // A page, a last page, a missing slash, a redirect and the not-found page.
      for (const route of ['/g0/page-0/', '/g2/page-9/', '/g1/page-5', '/old/', '/404.html']) {
        const loaded = await readRouteData(plainFiles, deploymentOf(data), recordRoutes(route));
        const screen = screenFromData(data.data, route, '<p>Body.</p>');
        const own = loaded.records.get(route);
        expect(screen.site, route).toEqual(loaded.site);
        expect(screen.view, route).toEqual(
          own ? { kind: 'page', page: own, html: '<p>Body.</p>' } : { kind: 'not-found' },
        );
        const shownGroups = [...loaded.groups].filter(([g]) => own?.groups.includes(g));
        expect([...screen.groups], route).toEqual(shownGroups);
      }
    }
  });

  it('keeps two deployments apart: each one’s files are its own queries', async () => {
    const queryClient = new QueryClient();
    const newer = splitForBrowser(site('3333cccc', 4, 80, 'Renamed'));
    const files = new Map([[manifestUrl(newer.data.core), newer.manifestJson], ...newer.files]);
    for (const [url, json] of files) await writeFile(fileOf(url), json);
    const route = '/g1/page-1/';
    const before = await ensureRouteData(queryClient, deploymentOf(folded), [route]);
    const after = await ensureRouteData(queryClient, deploymentOf(newer), [route]);
    expect(before.records.get(route)?.title).toBe('Page 1.1');
    expect(after.records.get(route)?.title).toBe('Renamed 1.1');
    expect((await ensureRouteData(queryClient, deploymentOf(folded), [route])).records.get(route)?.title).toBe(
      'Page 1.1',
    );
  });

  it('fails with the missing shard named, and loads it on a later try once it is there', async () => {
    const queryClient = new QueryClient();
    const deployment = deploymentOf(small);
    const route = '/g2/page-2/';
    const name = small.shards[shardOf(route, small.shards.length)] ?? '';
    const file = fileOf(shardUrl(BASE, name));
    await rm(file);
    const error: unknown = await ensureRouteData(queryClient, deployment, [route]).catch((e: unknown) => e);
    expect(isChunkLoadError(error) && { id: error.chunkId, type: error.type }).toEqual({
      id: `routes-${name}`,
      type: 'missing',
    });
    await writeFile(file, small.files.get(shardUrl(BASE, name)) ?? '');
    const { records } = await ensureRouteData(queryClient, deployment, [route]);
    expect(records.get(route)?.title).toBe('Page 2.2');
  });

  it('fails with a folded sidebar group named when its file is missing', async () => {
    const queryClient = new QueryClient();
    const deployment = deploymentOf(folded);
    const name = folded.data.core.sidebar[3]?.file ?? '';
    const file = fileOf(sidebarGroupUrl(BASE, name));
    await rm(file);
    const error: unknown = await ensureRouteData(queryClient, deployment, ['/g3/page-0/']).catch((e: unknown) => e);
    expect(isChunkLoadError(error) && { id: error.chunkId, type: error.type }).toEqual({
      id: `sidebar-${name}`,
      type: 'missing',
    });
    await writeFile(file, folded.files.get(sidebarGroupUrl(BASE, name)) ?? '');
  });
});
