/**
 * Tag-manager data layer (SPEC §7). Nothing is loaded or sent unless the site configures an id; the
 * container script itself is added by the page head only in that case.
 */
type DataLayerEvent = Record<string, unknown> & { event: string };

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
  }
}

let enabled = false;

export function enableAnalytics(analyticsId: string | undefined): void {
  enabled = Boolean(analyticsId);
  if (enabled) window.dataLayer = window.dataLayer ?? [];
}

export function track(event: string, data: Record<string, unknown> = {}): void {
  if (!enabled) return;
  window.dataLayer?.push({ event, ...data });
}
