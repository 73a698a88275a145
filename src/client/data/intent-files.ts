import { recordRoutes } from '../../shared/paths';
import { shardNameOf } from './route-data';
import type { Screen } from './screen';

/**
 * The fragment of the page at `route` as the sidebar's data names it (`SidebarLink.fragment`): the site
 * core's entries, then those of the folded groups read so far. Undefined for a page the sidebar does not
 * list, whose fragment only its route shard names.
 */
export function sidebarFragment(screen: Pick<Screen, 'site' | 'groups'>, route: string): string | undefined {
  const lists = [
    ...screen.site.sidebar.map((group) => group.items),
    ...[...screen.groups.values()].map((g) => g.items),
  ];
  for (const items of lists) {
    const entry = items.find((item) => item.link === route && item.fragment !== undefined);
    if (entry) return entry.fragment;
  }
  return undefined;
}

/**
 * What showing `route` reads that the tab can name before reading anything: the route shards of its
 * records (its own form's and its canonical form's), and its fragment when the sidebar lists it. Asked for
 * together on intent, none waits for another.
 */
export function filesOfRoute(
  screen: Pick<Screen, 'site' | 'groups'>,
  route: string,
): { shards: string[]; fragment: string | undefined } {
  const shards = [...new Set(recordRoutes(route).flatMap((r) => shardNameOf(screen.site, r) ?? []))];
  return { shards, fragment: sidebarFragment(screen, route) };
}
