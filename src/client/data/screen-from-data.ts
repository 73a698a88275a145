import { recordRoutes } from '../../shared/paths';
import { resolveRoute } from '../../shared/resolve';
import {
  isFolded,
  manifestUrl,
  shardOf,
  type ShardPage,
  type SidebarGroupFile,
  type SiteData,
} from '../../shared/site-data';
import type { Deployment } from './files';
import { recordIn } from './route-data';
import type { Screen } from './screen';

/**
 * The screen of `route` as the app's start fills it (entry.tsx): the page with its content, or not-found.
 * A file the data lacks is an error naming it: the document would show what the browser does not.
 */
export function screenFromData(data: SiteData, route: string, fragmentHtml: string | undefined): Screen {
  const { core } = data;
  const deployment: Deployment = {
    manifest: manifestUrl(core),
    hash: core.hash,
    shards: core.shards,
    site: { base: core.site.base },
  };
  const records = new Map<string, ShardPage>();
  for (const path of recordRoutes(route)) {
    const shard = data.shards[shardOf(path, core.shards.length)];
    const record = shard && recordIn(shard, path);
    if (record) records.set(path, record);
  }
  const resolution = resolveRoute(core.redirects, (path) => records.get(path), route);
  const page = resolution.kind === 'page' ? resolution.page : undefined;
  if (page && fragmentHtml === undefined) throw new Error(`prerendering ${route}: the page has no content`);
  const groups = new Map<number, SidebarGroupFile>();
  for (const g of page?.groups ?? []) {
    const group = core.sidebar[g];
    if (!group || !isFolded(group)) continue;
    const file = data.groups[g];
    if (!file) throw new Error(`prerendering ${route}: the site data has no file of sidebar group ${g}`);
    groups.set(g, file);
  }
  return {
    deployment,
    site: core,
    route,
    view: page && fragmentHtml !== undefined ? { kind: 'page', page, html: fragmentHtml } : { kind: 'not-found' },
    groups,
    groupErrors: new Map(),
    pending: false,
  };
}
