import type { QueryClient } from '@tanstack/react-query';
import type { SiteCore } from '../../shared/site-data';
import type { Deployment } from '../data/deployment';
import { routeShardQuery } from '../data/site-data';
import { savesData, whenIdle } from './viewport-prefetch';

/**
 * Up to this many route shards, a site's records are all fetched ahead of any intent. A shard holds about
 * `PAGES_PER_SHARD` pages, so this is a site of a few hundred pages, whose records together weigh about
 * one large page's fragment.
 */
export const ALL_SHARDS_UP_TO = 4;

/**
 * On a small site, fetches every route shard once the browser is idle after navigation has loaded. A
 * link's page needs its shard's record before its fragment can even be named, so a tap on a link of a
 * shard not read yet waits for two requests in a row; with every record at hand, the intent that comes
 * before the tap (a pointer over the link, its focus) fetches the fragment alone. A large site keeps
 * fetching shards on intent: its records grow with it. Not when the reader asked the browser to save
 * data. The shards go into navigation's own cache, as the router would read them; one that fails is
 * read again on the next navigation that needs it. Returns the cancel.
 */
export function prefetchRouteShards(queryClient: QueryClient, deployment: Deployment, site: SiteCore): () => void {
  if (site.shards.length > ALL_SHARDS_UP_TO || savesData()) return () => {};
  return whenIdle(() => {
    for (const name of site.shards) void queryClient.prefetchQuery(routeShardQuery(deployment, name));
  });
}
