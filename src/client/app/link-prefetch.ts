import type { QueryClient } from '@tanstack/react-query';
import { keyFromRoute } from '../../shared/paths';
import { fragmentQuery } from '../data/queries';
import type { ScreenStore } from '../data/screen';
import { filesOfRoute } from '../data/intent-files';
import { routeShardQuery } from '../data/site-data';
import { internalTarget } from './internal-target';
import type { AppRouter } from './router';

/**
 * Prefetches the page behind a same-site link through the router, so the fragment lands in React Query's
 * cache exactly as a navigation would load it. The files the tab can name at once (the route's shards, and
 * the fragment of a page the sidebar lists) are asked for at once, together, under the queries the router
 * then reads, rather than one after another as its steps come to them. Each page is asked for once (again
 * only after a failure); returns whether this call started a prefetch.
 */
export function linkPrefetcher(
  router: AppRouter,
  base: string,
  queryClient: QueryClient,
  screen: ScreenStore,
): (anchor: HTMLAnchorElement) => boolean {
  const prefetched = new Set<string>();
  return (anchor) => {
    const target = internalTarget(anchor, base);
    if (target === undefined || anchor.pathname === window.location.pathname) return false;
    const path = target.replace(/[?#].*$/, '');
    if (prefetched.has(path)) return false;
    prefetched.add(path);
    const shown = screen.getState();
    const { shards, fragment } = filesOfRoute(shown, path);
    for (const name of shards) void queryClient.prefetchQuery(routeShardQuery(shown.deployment, name));
    if (fragment !== undefined) void queryClient.prefetchQuery(fragmentQuery({ fragment, key: keyFromRoute(path) }));
    // The router settles a failed preload with the match in error rather than rejecting: either way the
    // page may be asked for again later (a hover after the network came back).
    router.preloadRoute(routeLocation(path)).then(
      (matches) => {
        if (matches?.some((m) => m.status === 'error')) prefetched.delete(path);
      },
      () => prefetched.delete(path),
    );
    return true;
  };
}

/** Typed navigation options for a route path (with optional `#hash`): every page is the splat route. */
export function routeLocation(route: string) {
  const hashAt = route.indexOf('#');
  const path = (hashAt >= 0 ? route.slice(0, hashAt) : route).replace(/\?.*$/, '');
  const hash = hashAt >= 0 ? route.slice(hashAt + 1) : undefined;
  return { to: '/$', params: { _splat: path.replace(/^\//, '') }, hash } as const;
}
