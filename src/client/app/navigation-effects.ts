import { headFor } from '../../shared/head';
import type { ScreenStore } from '../data/screen';
import { useUi } from '../data/store';
import { trackPageView } from './analytics';
import { focusInDialog, pageHeading } from './focus';
import { afterPaint } from './next-task';
import type { AppRouter } from './router';

/**
 * After each client-side navigation: close the sidebar drawer, move focus to the new page's heading,
 * announce the page to screen readers and record a page view. The first load is left alone here (the
 * entry records its page view when it starts). Focus, announcement and page view wait until the new page
 * has been painted: focus makes the browser lay the page out, and the announcement renders, both before
 * the frame that shows the page when done at once. Focus the reader moved meanwhile stays where they put
 * it (`focusMoved`): search opened with "/" while the page loads keeps what is typed. Returns the cleanup.
 */
export function followNavigations(router: AppRouter, screen: ScreenStore): () => void {
  let focusedAtStart: Element | null = null;
  const stopStarts = router.subscribe('onBeforeLoad', (event) => {
    if (event.pathChanged) focusedAtStart = document.activeElement;
  });
  const stopResolved = router.subscribe('onResolved', (event) => {
    const { setSidebarOpen, announce } = useUi.getState();
    setSidebarOpen(false);
    if (!event.pathChanged) return;
    const startedFrom = focusedAtStart;
    afterPaint(() => {
      if (!window.location.hash && !focusMoved(startedFrom)) pageHeading()?.focus({ preventScroll: true });
      const title = shownTitle(screen);
      announce(title);
      trackPageView(screen.getState().site.site.analyticsId, title);
    });
  });
  return () => {
    stopStarts();
    stopResolved();
  };
}

/**
 * Whether the reader put focus somewhere since the navigation started from `startedFrom`: into a modal
 * dialog (search, an image shown whole), or onto another element while the one that had focus is still on
 * the page. What had focus may be gone (a link of the page left, search closed on its result): focus is
 * then wherever the page put it, not the reader.
 */
function focusMoved(startedFrom: Element | null): boolean {
  const focus = document.activeElement;
  if (!focus || focus === document.body) return false;
  if (focusInDialog()) return true;
  return startedFrom !== null && startedFrom.isConnected && focus !== startedFrom;
}

/** The title of the page on screen, as its head has it (written once painted, perhaps not yet). */
function shownTitle(screen: ScreenStore): string {
  const { view, site } = screen.getState();
  if (view.kind === 'error') return document.title;
  return headFor(site.site, view.kind === 'page' ? view.page : undefined).title;
}
