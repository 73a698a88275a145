import type { QueryClient } from '@tanstack/react-query';
import { keyFromRoute } from '../../shared/paths';
import { fragmentQuery } from '../data/queries';
import type { ScreenStore } from '../data/screen';
import { sidebarFragment } from '../data/sidebar-fragment';
import { internalTarget } from './internal-target';
import type { AppRouter } from './router';

/**
 * Prefetches the page behind a same-site link through the router, so the fragment lands in React Query's
 * cache exactly as a navigation would load it. A page the sidebar lists has its fragment named there: it
 * is asked for at once, beside the route shard the router reads first, under the query the router's loader
 * then finds. Each page is asked for once (again only after a failure); returns whether this call started
 * a prefetch.
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
    const fragment = sidebarFragment(screen.getState(), path);
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
