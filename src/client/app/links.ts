import { useEffect } from 'react';
import { withoutBase } from '../../shared/paths';
import type { AppRouter } from './router';
import { track } from './analytics';
import { prefetchLinksInView } from './viewport-prefetch';

/** The internal route (with search and hash) an anchor points to, or undefined when it leaves the app. */
export function internalTarget(anchor: HTMLAnchorElement, base: string): string | undefined {
  if (anchor.target && anchor.target !== '_self') return undefined;
  if (anchor.hasAttribute('download') || anchor.origin !== window.location.origin) return undefined;
  // Files served beside the pages (images, downloads, markdown twins, llms.txt) load as themselves.
  if (/\.[a-z0-9]+$/i.test(anchor.pathname) && !/\.html?$/i.test(anchor.pathname)) return undefined;
  const route = withoutBase(base, anchor.pathname);
  return route === undefined ? undefined : route + anchor.search + anchor.hash;
}

/**
 * One delegated handler turns every same-site link — sidebar, content, prev/next — into a client-side
 * navigation, and prefetches the page behind a link under the pointer or keyboard focus, or in view.
 */
export function useLinkInterception(router: AppRouter, base: string, analyticsId: string | undefined): void {
  useEffect(() => {
    const anchorOf = (event: Event) => (event.target instanceof Element ? event.target.closest('a[href]') : null);

    const onClick = (event: MouseEvent) => {
      const anchor = anchorOf(event);
      if (!(anchor instanceof HTMLAnchorElement) || event.defaultPrevented) return;
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (anchor.hasAttribute('data-zoom')) {
        // A wide screenshot: shown over the page; if its code cannot load, the link opens the file.
        event.preventDefault();
        import('./image-zoom').then(
          ({ showFullSize }) => showFullSize(anchor),
          () => window.location.assign(anchor.href),
        );
        return;
      }
      const target = internalTarget(anchor, base);
      if (target === undefined) {
        if (anchor.origin !== window.location.origin) track(analyticsId, 'outbound_link', { url: anchor.href });
        return;
      }
      event.preventDefault();
      const here = window.location;
      // Duplicate navigation: the current URL again does nothing — no refetch, no history entry.
      if (anchor.href === here.href && !anchor.hash) return;
      if (anchor.pathname === here.pathname && anchor.search === here.search && anchor.hash) {
        const id = decodeURIComponent(anchor.hash.slice(1));
        if (anchor.hasAttribute('data-toc-link')) {
          window.dispatchEvent(new CustomEvent(HEADING_CHOSEN_EVENT, { detail: id }));
        }
        if (anchor.hash === here.hash) document.getElementById(id)?.scrollIntoView();
        else navigateTo(router, target);
        // The browser's own fragment navigation moves keyboard focus to the target (the skip link relies
        // on it); the router only scrolls. Headings and <main> take focus through tabindex="-1".
        document.getElementById(id)?.focus({ preventScroll: true });
        return;
      }
      navigateTo(router, target);
    };

    const prefetchLink = linkPrefetcher(router, base);
    const prefetch = (event: Event) => {
      const anchor = anchorOf(event);
      if (anchor instanceof HTMLAnchorElement) prefetchLink(anchor);
    };

    document.addEventListener('click', onClick);
    document.addEventListener('pointerover', prefetch, { passive: true });
    document.addEventListener('focusin', prefetch);
    const stopInView = prefetchLinksInView(router, prefetchLink);
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('pointerover', prefetch);
      document.removeEventListener('focusin', prefetch);
      stopInView();
    };
  }, [router, base, analyticsId]);
}

/**
 * Prefetches the page behind a same-site link through the router, so the fragment lands in React Query's
 * cache exactly as a navigation would load it. Each page is asked for once (again only after a failure);
 * returns whether this call started a prefetch.
 */
function linkPrefetcher(router: AppRouter, base: string): (anchor: HTMLAnchorElement) => boolean {
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

export function navigateTo(router: AppRouter, route: string): void {
  void router.navigate(routeLocation(route));
}

/** Event the active-heading tracker listens to, so a clicked table-of-contents link wins over scrolling. */
export const HEADING_CHOSEN_EVENT = 'docs:heading-chosen';
