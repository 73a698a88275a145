import type { AppRouter } from './router';

/** At most this many pages are prefetched for links in view, per page shown. */
const IN_VIEW_BUDGET = 8;
/** Content links watched per page: enough for any screenful, bounded on pages that are one long list. */
const MAX_CONTENT_LINKS = 120;
/**
 * A link is prefetched once it has stayed in view this long: links a reader scrolls past are not worth
 * the bytes, and the first second after a page appears belongs to that page's own work.
 */
export const IN_VIEW_DWELL_MS = 1000;

type Prefetch = (anchor: HTMLAnchorElement) => boolean;

/**
 * Prefetches the pages behind links the reader can see (issue 3, "links in view are prefetched"), when
 * the browser is idle. Only the likely next steps are watched — the previous/next links, links in the
 * page's content and the sidebar entries of the current page's group — and only while on screen, so the
 * rest of the 100-odd sidebar entries are never fetched in bulk; a bounded number per page, and none when
 * the reader asked the browser to save data. Restarts after every navigation; returns the cleanup.
 */
export function prefetchLinksInView(router: AppRouter, prefetch: Prefetch): () => void {
  if (typeof IntersectionObserver === 'undefined' || savesData()) return () => {};
  let stopPage = watchPage(prefetch);
  const unsubscribe = router.subscribe('onResolved', (event) => {
    if (!event.pathChanged) return;
    stopPage();
    stopPage = watchPage(prefetch);
  });
  return () => {
    unsubscribe();
    stopPage();
  };
}

/** Watches the links of the page now on screen; returns the cleanup. */
function watchPage(prefetch: Prefetch): () => void {
  let budget = IN_VIEW_BUDGET;
  const dwelling = new Map<Element, ReturnType<typeof setTimeout>>();
  const cancels = new Set<() => void>();
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const anchor = entry.target as HTMLAnchorElement;
      if (!entry.isIntersecting) {
        clearTimeout(dwelling.get(anchor));
        dwelling.delete(anchor);
      } else if (!dwelling.has(anchor)) {
        const timer = setTimeout(() => {
          dwelling.delete(anchor);
          observer.unobserve(anchor);
          const cancel = whenIdle(() => {
            cancels.delete(cancel);
            if (budget > 0 && anchor.isConnected && prefetch(anchor)) budget -= 1;
          });
          cancels.add(cancel);
        }, IN_VIEW_DWELL_MS);
        dwelling.set(anchor, timer);
      }
    }
  });
  // After the new page has been drawn: the router reports a navigation before React commits it.
  const start = whenIdle(() => {
    cancels.delete(start);
    for (const anchor of candidates()) observer.observe(anchor);
  });
  cancels.add(start);
  return () => {
    observer.disconnect();
    for (const timer of dwelling.values()) clearTimeout(timer);
    for (const cancel of cancels) cancel();
  };
}

/** The links worth prefetching, most likely first: previous/next, the content, the current sidebar group. */
function candidates(): HTMLAnchorElement[] {
  const group = document.querySelector('nav#sidebar a[aria-current="page"]')?.closest('.sidebar-group');
  return [
    ...document.querySelectorAll<HTMLAnchorElement>('.prev-next a[href]'),
    ...[...document.querySelectorAll<HTMLAnchorElement>('#page-content a[href]')].slice(0, MAX_CONTENT_LINKS),
    ...(group?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? []),
  ];
}

/** Runs `run` once the browser is idle (within 2 s); returns the cancel. */
export function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 200);
  return () => clearTimeout(id);
}

/** The reader's data-saver setting (Chromium's Network Information API); a slow link counts the same. */
export function savesData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } })
    .connection;
  return connection?.saveData === true || /(^|-)2g$/.test(connection?.effectiveType ?? '');
}
