import { describe, expect, it } from 'vitest';
import { pointerOf } from '../../../../src/node/output/site-files';
import { splitForBrowser, type UnhashedManifest } from '../../../../src/node/output/browser-data';
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
import type { Manifest, PageMeta, SidebarGroup } from '../../../../src/shared/types';
import { groupedSite } from '../../../helpers/grouped-site';

/** Page 1 of each group opts out of a next link. */
const site = (groups: number, perGroup: number): UnhashedManifest =>
  groupedSite({ hash: '1234abcd', groups, perGroup, frontmatter: (i) => (i === 1 ? { next: false } : {}) });

const BASE = '/docs/';

/** The same site with the record of `route` changed by `change`. */
function withPage(route: string, change: Partial<PageMeta>): UnhashedManifest {
  const edited = site(5, 100);
  edited.pages = edited.pages.map((page) => (page.path === route ? { ...page, ...change } : page));
  return edited;
}

/** A group's entries as the browser's data has them: each with the fragment of the page it links to. */
const entriesOf = (whole: UnhashedManifest, group: SidebarGroup | undefined) =>
  group?.items.map((item) => ({ ...item, fragment: whole.pages.find((p) => p.path === item.link)?.fragment }));

describe('the site data as the browser loads it', () => {
  it('keeps the pages out of the manifest and puts each record in the shard its route hashes to', () => {
    const whole = site(5, 100);
    const data = splitForBrowser(whole);
    const core = JSON.parse(data.manifestJson) as Manifest;
    const shards = shardCount(500);
    expect(core.pages).toEqual([]);
    expect(core.shards).toEqual(data.shards);
    expect(data.shards).toHaveLength(shards);
    const index = indexManifest(whole);
    const seen = new Set<string>();
    data.shards.forEach((name, n) => {
      const shard = JSON.parse(data.files.get(shardUrl(BASE, name)) ?? 'null') as RouteShard;
      expect(shard.pages.length).toBeLessThan(PAGES_PER_SHARD * 2);
      for (const record of shard.pages) {
        expect(shardOf(record.path, shards)).toBe(n);
        expect(record.neighbours).toEqual(neighboursOf(index.byRoute.get(record.path) as PageMeta, index));
        seen.add(record.path);
      }
    });
    expect(seen.size).toBe(500);
  });

  it('names each data file by its contents: a page changed renames its own shard and the manifest only', () => {
    const before = splitForBrowser(site(5, 100));
    const route = '/g3/page-4/';
    const after = splitForBrowser(withPage(route, { description: 'New words.' }));
    const n = shardOf(route, before.shards.length);
    expect(after.shards.filter((name, m) => name !== before.shards[m])).toEqual([after.shards[n]]);
    expect(after.manifest.hash).not.toBe(before.manifest.hash);
    expect(splitForBrowser(site(5, 100)).manifest.hash).toBe(before.manifest.hash);
    // What a document shows of the site is the same for every other page: their documents stay as they are.
    expect(after.viewOf('/g0/page-1/')).toBe(before.viewOf('/g0/page-1/'));
    expect(after.viewOf(route)).not.toBe(before.viewOf(route));
  });

  it('keeps the unchanged shards of the site last written, and gives the same data as a split from scratch', () => {
    const before = splitForBrowser(site(5, 100));
    const route = '/g1/page-9/';
    const edited = withPage(route, { title: 'Renamed' });
    const fresh = splitForBrowser(edited);
    const kept = splitForBrowser(edited, before);
    expect(kept.shards).toEqual(fresh.shards);
    expect([...kept.files]).toEqual([...fresh.files]);
    expect(kept.manifestJson).toBe(fresh.manifestJson);
    // The renamed page's shard, and the shards of the pages whose previous or next link names it, are new.
    const renamed = kept.shards.filter((name, n) => name !== before.shards[n]);
    expect(renamed.length).toBeGreaterThan(0);
    expect(renamed).toContain(kept.shards[shardOf(route, kept.shards.length)]);
  });

  it('makes again only the shard and group file of a page whose own fields changed, as a split from scratch would', () => {
    const before = splitForBrowser(site(5, 100));
    const route = '/g2/page-5/';
    const changes: Partial<PageMeta>[] = [
      { description: 'New words.', fragment: '/docs/assets/js/page.g2-page-5.0123abcd.html' },
      // Its next link now named by its front matter: the record's neighbours follow.
      { frontmatter: { next: '/g0/page-2/' } },
    ];
    for (const change of changes) {
      const edited = withPage(route, change);
      const fresh = splitForBrowser(edited);
      const kept = splitForBrowser(edited, before);
      expect(kept.manifestJson).toBe(fresh.manifestJson);
      expect([...kept.files].sort()).toEqual([...fresh.files].sort());
      expect(kept.data).toEqual(fresh.data);
      expect(kept.viewOf(route)).toBe(fresh.viewOf(route));
      expect(kept.groupsOf(route)).toEqual(fresh.groupsOf(route));
      const n = shardOf(route, before.shards.length);
      expect(kept.shards.filter((name, m) => name !== before.shards[m])).toEqual([kept.shards[n]]);
      expect(kept.records.get(route)?.neighbours.next?.link).toBe(change.frontmatter ? '/g0/page-2/' : '/g2/page-6/');
      // The other shards are the objects the last split made, not copies.
      expect(kept.data.shards.filter((shard, m) => shard !== before.data.shards[m])).toHaveLength(1);
    }
  });

  it('folds a large sidebar into headings, with each group’s entries in a file the page preloads', () => {
    const whole = site(4, 100);
    expect(400).toBeGreaterThan(FOLD_SIDEBAR_ABOVE);
    const data = splitForBrowser(whole);
    const core = JSON.parse(data.manifestJson) as Manifest;
    expect(core.sidebar.map((g) => [g.text, g.items.length, g.size])).toEqual([
      ['Group 0', 0, 100],
      ['Group 1', 0, 100],
      ['Group 2', 0, 100],
      ['Group 3', 0, 100],
    ]);
    const name = core.sidebar[2]?.file ?? '';
    const group = JSON.parse(data.files.get(sidebarGroupUrl(BASE, name)) ?? 'null') as SidebarGroupFile;
    expect(group.items).toEqual(entriesOf(whole, whole.sidebar[2]));
    // What a first visit loads: the pointer names the deployment and its shards, the document the page's groups.
    const pointer = pointerOf(data.manifest, data.shards);
    expect(data.shards).toHaveLength(shardCount(400));
    expect(data.groupsOf('/g2/page-7/')).toEqual([name]);
    expect(startDataUrls(pointer, BASE, routesAt(BASE, '/docs/g2/page-7/'), [name])).toEqual([
      pointer.manifest,
      shardUrl(BASE, data.shards[shardOf('/g2/page-7/', shardCount(400))] ?? ''),
      sidebarGroupUrl(BASE, name),
    ]);
  });

  it('keeps a small sidebar whole in the manifest', () => {
    const whole = site(2, 50);
    const data = splitForBrowser(whole);
    expect((JSON.parse(data.manifestJson) as Manifest).sidebar).toEqual(
      whole.sidebar.map((group) => ({ ...group, items: entriesOf(whole, group) })),
    );
    expect([...data.files.keys()].some((url) => url.includes('/sidebar.'))).toBe(false);
    expect(data.groupsOf('/g1/page-3/')).toEqual([]);
    const pointer = pointerOf(data.manifest, data.shards);
    expect(startDataUrls(pointer, BASE, routesAt(BASE, '/docs/g1/page-3'), [])).toEqual([
      pointer.manifest,
      shardUrl(BASE, data.shards[shardOf('/g1/page-3', shardCount(100))] ?? ''),
      shardUrl(BASE, data.shards[shardOf('/g1/page-3/', shardCount(100))] ?? ''),
    ]);
  });

  it("names each sidebar entry's fragment, whose new name changes no other page's document", () => {
    const route = '/g1/page-3/';
    const before = splitForBrowser(site(2, 50));
    const edited = site(2, 50);
    edited.pages = edited.pages.map((page) =>
      page.path === route ? { ...page, fragment: page.fragment.replace(/\.html$/, '.new.html') } : page,
    );
    const after = splitForBrowser(edited);
    const entry = (data: typeof before) =>
      (JSON.parse(data.manifestJson) as Manifest).sidebar[1]?.items.find((item) => item.link === route);
    expect(entry(before)?.fragment).toBe(before.manifest.pages.find((p) => p.path === route)?.fragment);
    expect(entry(after)?.fragment).toMatch(/\.new\.html$/);
    expect(after.viewOf('/g0/page-1/')).toBe(before.viewOf('/g0/page-1/'));
  });
});
