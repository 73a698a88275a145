/**
 * Asks the browser for `url` now, for a `fetch()` of the app to read later: the response waits in the
 * document's preload cache, and a request made meanwhile joins the one under way.
 */
export function preloadFetch(url: string): void {
  const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', href: url });
  // The app fetches with `fetch()` in CORS mode: the preload must match it to be reused.
  link.crossOrigin = 'anonymous';
  document.head.append(link);
}
