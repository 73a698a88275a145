/**
 * Tag-manager data layer. Nothing is loaded or sent unless the site configures an id; the
 * container script itself is added by the page head only in that case.
 */
type DataLayerEvent = Record<string, unknown> & { event: string };

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
  }
}

let enabled = false;

/**
 * Turns the data layer on when the site has an id. The tag manager's own snippet pushes the start event
 * before its script loads; the CSP allows no inline snippet, so the app pushes it as soon as it knows the
 * id. The container's page-view triggers wait for it, and gtm.js picks up the queue whenever it runs.
 */
export function enableAnalytics(analyticsId: string | undefined): void {
  enabled = Boolean(analyticsId);
  if (!enabled) return;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
}

export function track(event: string, data: Record<string, unknown> = {}): void {
  if (!enabled) return;
  window.dataLayer?.push({ event, ...data });
}

/** A page view of the page now on screen: on the first load and after each client-side navigation. */
export function trackPageView(): void {
  track('page_view', { page_path: window.location.pathname, page_title: document.title });
}
