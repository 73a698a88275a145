import { useEffect } from 'react';
import { track } from './analytics';
import { internalTarget } from './internal-target';
import { linkIntent, navigate, navigationAnswersLinks } from './navigation-loader';

/**
 * One delegated handler turns every same-site link — sidebar, content, prev/next — into a client-side
 * navigation (app/navigation-loader.ts), and a link under the pointer or keyboard focus into a prefetch of
 * its page; both load navigation first when it is not there yet.
 */
export function useLinkInterception(base: string, analyticsId: string | undefined): void {
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
      // Navigation failed to load: the link is the plain page load the banner says it is.
      if (!navigationAnswersLinks()) return;
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
        else navigate(target);
        // The browser's own fragment navigation moves keyboard focus to the target (the skip link relies
        // on it); the router only scrolls. Headings and <main> take focus through tabindex="-1".
        document.getElementById(id)?.focus({ preventScroll: true });
        return;
      }
      navigate(target);
    };

    const intent = (event: Event) => {
      const anchor = anchorOf(event);
      if (anchor instanceof HTMLAnchorElement && internalTarget(anchor, base) !== undefined) linkIntent(anchor);
    };

    document.addEventListener('click', onClick);
    document.addEventListener('pointerover', intent, { passive: true });
    document.addEventListener('focusin', intent);
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('pointerover', intent);
      document.removeEventListener('focusin', intent);
    };
  }, [base, analyticsId]);
}

/** Event the active-heading tracker listens to, so a clicked table-of-contents link wins over scrolling. */
export const HEADING_CHOSEN_EVENT = 'docs:heading-chosen';
