import { headFor } from '../../shared/head';
import type { ScreenStore } from '../data/screen';
import { useUi } from '../data/store';
import { trackPageView } from './analytics';
import { afterPaint } from './next-task';
import type { AppRouter } from './router';

/**
 * After each client-side navigation: close the sidebar drawer, move focus to the new page's heading,
 * announce the page to screen readers and record a page view. The first load is left alone here (the
 * entry records its page view when it starts). Focus, announcement and page view wait until the new page
 * has been painted: focus makes the browser lay the page out, and the announcement renders, both before
 * the frame that shows the page when done at once. Returns the cleanup.
 */
export function followNavigations(router: AppRouter, screen: ScreenStore): () => void {
  return router.subscribe('onResolved', (event) => {
    const { setSidebarOpen, announce } = useUi.getState();
    setSidebarOpen(false);
    if (!event.pathChanged) return;
    afterPaint(() => {
      const heading = document.querySelector<HTMLElement>('#main-content h1');
      if (!window.location.hash) heading?.focus({ preventScroll: true });
      const title = shownTitle(screen);
      announce(title);
      trackPageView(screen.getState().site.site.analyticsId, title);
    });
  });
}

/** The title of the page on screen, as its head has it (written once painted, perhaps not yet). */
function shownTitle(screen: ScreenStore): string {
  const { view, site } = screen.getState();
  if (view.kind === 'error') return document.title;
  return headFor(site.site, view.kind === 'page' ? view.page : undefined).title;
}
