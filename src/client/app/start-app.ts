/**
 * Boot script: starts the app once the page has painted. Before that, the network carries only what the
 * first paint needs; the app's modules and first data (StartAssets) would share the connection with the
 * stylesheet and delay it. The prerendered page reads, and its links work, without the app.
 */
import { START_ASSETS_ID, type StartAssets } from '../../shared/start-assets';

/** Longest wait for the first paint: past it the app starts anyway. */
const FIRST_PAINT_WAIT_MS = 1000;

/** Calls `start` once, after the page's first contentful paint (at once where there is none to wait for). */
function afterFirstPaint(start: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  // A tab opened in the background does not paint until it is shown, and an old browser cannot tell.
  const canWait =
    document.visibilityState === 'visible' &&
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes.includes('paint');
  if (!canWait) return once();
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    once();
  });
  observer.observe({ type: 'paint', buffered: true });
  setTimeout(() => {
    observer.disconnect();
    once();
  }, FIRST_PAINT_WAIT_MS);
}

/** Requests the start assets the document lists: the data and chunks beside the entry, not after it. */
function loadApp(assets: StartAssets): void {
  const head = document.head;
  for (const url of assets.data) {
    const link = document.createElement('link');
    // The app fetches these with `fetch()` in CORS mode: the preload must match it to be reused.
    Object.assign(link, { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous', href: url });
    head.append(link);
  }
  for (const url of assets.modules)
    head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href: url }));
  head.append(Object.assign(document.createElement('script'), { type: 'module', src: assets.entry }));
}

/** Reads the document's start assets and loads them after the first paint; a page without them has no app. */
export function startAppAfterFirstPaint(): void {
  const load = () => {
    const element = document.getElementById(START_ASSETS_ID);
    if (element?.textContent) loadApp(JSON.parse(element.textContent) as StartAssets);
  };
  // The list sits in <head> after this script: parsed before any paint, but not yet when a background tab
  // (which starts the app at once) runs this.
  afterFirstPaint(() =>
    document.readyState === 'loading' && !document.getElementById(START_ASSETS_ID)
      ? document.addEventListener('DOMContentLoaded', load, { once: true })
      : load(),
  );
}
