import { internalTarget } from './internal-target';
import type { AppRouter } from './router';

/**
 * Prefetches the page behind a same-site link through the router, so the fragment lands in React Query's
 * cache exactly as a navigation would load it. Each page is asked for once (again only after a failure);
 * returns whether this call started a prefetch.
 */
export function linkPrefetcher(router: AppRouter, base: string): (anchor: HTMLAnchorElement) => boolean {
  const prefetched = new Set<string>();
  return (anchor) => {
    const target = internalTarget(anchor, base);
    if (target === undefined || anchor.pathname === window.location.pathname) return false;
    const path = target.replace(/[?#].*$/, '');
    if (prefetched.has(path)) return false;
    prefetched.add(path);
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
