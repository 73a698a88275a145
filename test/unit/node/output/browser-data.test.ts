import { describe, expect, it } from 'vitest';
import { pointerOf } from '../../../../src/node/output/site-files';
import { splitForBrowser } from '../../../../src/node/output/browser-data';
import { neighboursOf } from '../../../../src/shared/navigation';
import { routesAt } from '../../../../src/shared/paths';
import { indexManifest } from '../../../../src/shared/resolve';
import {
  FOLD_SIDEBAR_ABOVE,
  PAGES_PER_SHARD,
  shardCount,
  shardOf,
  shardUrl,
  sidebarGroupUrl,
  startDataUrls,
  type RouteShard,
  type SidebarGroupFile,
} from '../../../../src/shared/site-data';
import type { Manifest, PageMeta } from '../../../../src/shared/types';
import { groupedSite } from '../../../helpers/grouped-site';

/** Page 1 of each group opts out of a next link. */
const site = (groups: number, perGroup: number): Manifest =>
  groupedSite({ hash: '1234abcd', groups, perGroup, frontmatter: (i) => (i === 1 ? { next: false } : {}) });

describe('the site data as the browser loads it', () => {
  it('keeps the pages out of the manifest and puts each record in the shard its route hashes to', () => {
    const manifest = site(5, 100);
    const data = splitForBrowser(manifest);
    const core = JSON.parse(data.manifestJson) as Manifest;
    const shards = shardCount(500);
    expect(core.pages).toEqual([]);
    expect(core.shards).toBe(shards);
    const index = indexManifest(manifest);
    const seen = new Set<string>();
    for (let n = 0; n < shards; n++) {
      const shard = JSON.parse(data.files.get(shardUrl(manifest, n)) ?? 'null') as RouteShard;
      expect(shard.hash).toBe('1234abcd');
      expect(shard.pages.length).toBeLessThan(PAGES_PER_SHARD * 2);
      for (const record of shard.pages) {
        expect(shardOf(record.path, shards)).toBe(n);
        expect(record.neighbours).toEqual(neighboursOf(index.byRoute.get(record.path) as PageMeta, index));
        seen.add(record.path);
      }
    }
    expect(seen.size).toBe(500);
  });

  it('folds a large sidebar into headings, with each group’s entries in a file the page preloads', () => {
    const manifest = site(4, 100);
    expect(400).toBeGreaterThan(FOLD_SIDEBAR_ABOVE);
    const data = splitForBrowser(manifest);
    const core = JSON.parse(data.manifestJson) as Manifest;
    expect(core.sidebar.map((g) => [g.text, g.items.length, g.size])).toEqual([
      ['Group 0', 0, 100],
      ['Group 1', 0, 100],
      ['Group 2', 0, 100],
      ['Group 3', 0, 100],
    ]);
    const group = JSON.parse(data.files.get(sidebarGroupUrl(manifest, 2)) ?? 'null') as SidebarGroupFile;
    expect(group.items).toEqual(manifest.sidebar[2]?.items);
    // What a first visit loads: the pointer names the deployment, the document the page's groups.
    const pointer = pointerOf(manifest, data.shards);
    expect(data.shards).toBe(shardCount(400));
    expect(data.groupsOf('/g2/page-7/')).toEqual([2]);
    expect(startDataUrls(pointer, '/docs/', routesAt('/docs/', '/docs/g2/page-7/'), [2])).toEqual([
      pointer.manifest,
      shardUrl(manifest, shardOf('/g2/page-7/', shardCount(400))),
      sidebarGroupUrl(manifest, 2),
    ]);
  });

  it('keeps a small sidebar whole in the manifest', () => {
    const manifest = site(2, 50);
    const data = splitForBrowser(manifest);
    expect((JSON.parse(data.manifestJson) as Manifest).sidebar).toEqual(manifest.sidebar);
    expect([...data.files.keys()].some((url) => url.includes('/sidebar.'))).toBe(false);
    expect(data.groupsOf('/g1/page-3/')).toEqual([]);
    const pointer = pointerOf(manifest, data.shards);
    expect(startDataUrls(pointer, '/docs/', routesAt('/docs/', '/docs/g1/page-3'), [])).toEqual([
      pointer.manifest,
      shardUrl(manifest, shardOf('/g1/page-3', shardCount(100))),
      shardUrl(manifest, shardOf('/g1/page-3/', shardCount(100))),
    ]);
  });
});
