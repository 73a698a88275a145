/**
 * Boot script: starts the app once the page has painted. Before that, the network carries only what the
 * first paint needs; the app's modules and first data (StartAssets) would share the connection with the
 * stylesheet and delay it. The prerendered page reads, and its links work, without the app.
 */
import { startDataUrls } from '../../shared/site-data';
import { START_ASSETS_ID, type StartAssets } from '../../shared/start-assets';
import type { DeploymentPointer } from '../../shared/types';
import { handOverPointerRequest } from '../data/pointer-request';
import { preloadFetch } from '../data/preload-fetch';

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

/** The start assets the page's document lists; none in a page without the app. */
export function pageStartAssets(): StartAssets | undefined {
  const text = document.getElementById(START_ASSETS_ID)?.textContent;
  return text ? (JSON.parse(text) as StartAssets) : undefined;
}

const isPointer = (value: unknown): value is DeploymentPointer =>
  typeof (value as DeploymentPointer | undefined)?.manifest === 'string';

/**
 * Requests the deployment pointer and, once it names the deployment, preloads the data the app reads
 * first, while the app's modules are still on their way. The app reads the response itself and reports
 * what is wrong with it, so here a failure only means nothing is preloaded.
 */
function requestPointer(assets: StartAssets): Promise<Response> {
  const request = fetch(assets.pointer, { cache: 'no-cache' }).then(async (response) => {
    const pointer: unknown = response.ok
      ? await response
          .clone()
          .json()
          .catch(() => undefined)
      : undefined;
    if (isPointer(pointer)) {
      // The page's own record; on another URL of the page, or on the not-found page, the app asks for
      // what else it needs.
      const routes = assets.route ? [assets.route] : [];
      for (const url of startDataUrls(pointer, assets.base, routes, assets.groups)) preloadFetch(url);
    }
    return response;
  });
  // Read by the app; a failure is the app's to report, never an unhandled rejection here.
  request.catch(() => undefined);
  return request;
}

/** Requests the pointer, the entry and the chunks beside it: none waits for another. */
function loadApp(assets: StartAssets): void {
  handOverPointerRequest(requestPointer(assets));
  const head = document.head;
  for (const url of assets.modules)
    head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href: url }));
  head.append(Object.assign(document.createElement('script'), { type: 'module', src: assets.entry }));
}

/** Reads the document's start assets and loads them after the first paint; a page without them has no app. */
export function startAppAfterFirstPaint(): void {
  const load = () => {
    const assets = pageStartAssets();
    if (assets) loadApp(assets);
  };
  // The list ends <body>, and the first paint waits for it (the document's `rel=expect`): it is parsed by
  // then, but not yet when a background tab (which starts the app at once) or a browser that paints a page
  // in part runs this.
  afterFirstPaint(() =>
    document.readyState === 'loading' && !document.getElementById(START_ASSETS_ID)
      ? document.addEventListener('DOMContentLoaded', load, { once: true })
      : load(),
  );
}
