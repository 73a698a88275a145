import { useCallback } from 'react';

/**
 * Tag-manager data layer. Nothing is loaded or sent unless the site configures an id; the
 * container script itself is added by the page head only in that case. Whether it is on is the site
 * core's `analyticsId` (a query's data), so each call names it rather than the module remembering it.
 */
type DataLayerEvent = Record<string, unknown> & { event: string };

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
  }
}

/**
 * Starts the data layer when the site has an id. The tag manager's own snippet pushes the start event
 * before its script loads; the CSP allows no inline snippet, so the app pushes it as soon as it knows the
 * id. The container's page-view triggers wait for it, and gtm.js picks up the queue whenever it runs.
 */
export function startAnalytics(analyticsId: string | undefined): void {
  if (!analyticsId) return;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
}

/** Records `event` for a site with an analytics id; does nothing for one without. */
export function track(analyticsId: string | undefined, event: string, data: Record<string, unknown> = {}): void {
  if (!analyticsId) return;
  window.dataLayer?.push({ event, ...data });
}

/**
 * A page view of the page now on screen: on the first load and after each client-side navigation, whose
 * caller gives the new page's title (the document's may not have followed yet).
 */
export function trackPageView(analyticsId: string | undefined, title = document.title): void {
  track(analyticsId, 'page_view', { page_path: window.location.pathname, page_title: title });
}

/**
 * `track` for a view, bound to the analytics id of the site it shows. The id comes from the view's caller,
 * which has the site core already: every page is prerendered, and each query a view reads costs each page.
 */
export function useTrack(analyticsId: string | undefined): (event: string, data?: Record<string, unknown>) => void {
  return useCallback((event, data) => track(analyticsId, event, data), [analyticsId]);
}
