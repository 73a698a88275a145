import type { DevUpdate } from '../../shared/dev-update';
import { withBase } from '../../shared/paths';
import { shardUrl } from '../../shared/site-data';
import { useUi } from '../data/store';
import { preloadFetch } from '../data/preload-fetch';
import { filesOfRoute } from '../data/intent-files';
import { DEV_CONTENT_EVENT } from '../dev/events';
import { internalTarget } from './internal-target';
import { retryableChunk } from './lazy-chunk';
import type { Navigation, NavigationStart } from './navigation';
import { showStartupError } from './startup-error';

/**
 * Navigation — the router, React Query and what they do on each navigation — is a chunk of its own, loaded
 * once the page has been taken over: when the browser is idle, and at once when the reader shows intent (a
 * pointer over or focus on a same-site link, a tap of one, a search result picked). Until it is there the screen is
 * the prerendered page, hydrated; a tap on a link waits for the chunk and then navigates, or, should the
 * chunk fail to load, becomes the plain page load the link is.
 */
const loadChunk = retryableChunk('navigation', () => import('./navigation'));

let start: NavigationStart | undefined;
let loading: Promise<Navigation> | undefined;
let ready: Navigation | undefined;
let failed = false;

/** What navigation starts from: set once the app has read its data, before the page is hydrated. */
export function prepareNavigation(from: NavigationStart): void {
  start = from;
}

/** Loads and starts navigation, once; a failure shows the startup banner, whose Retry loads it again. */
export function loadNavigation(): Promise<Navigation> {
  const from = start;
  if (!from) return Promise.reject(new Error('navigation is asked for before the app has started'));
  if (loading) return loading;
  // Loading again (Retry): a tap from now on waits for it.
  failed = false;
  loading = loadChunk()
    .then(({ startNavigation }) => startNavigation(from))
    .then(
      (navigation) => {
        ready = navigation;
        return navigation;
      },
      (error: unknown) => {
        loading = undefined;
        failed = true;
        showStartupError(error, () => void loadNavigation().catch(() => {}));
        throw error;
      },
    );
  return loading;
}

/**
 * How long after the takeover navigation waits to load without intent: the reader's first input after
 * the takeover (a search opened at once) comes first, and intent (a pointer over a link, a tap) loads it
 * at once anyway. Short, so that navigation is ready by the time a reader picks a link to follow.
 */
const UNASKED_LOAD_DELAY_MS = 300;

/**
 * Loads navigation once the page has been taken over a while and the browser has nothing else to do. Not
 * while the search dialog is open: the chunk's evaluation and its first load would hold up the reader's
 * results. It loads once the dialog closes, or at once when a result is picked (`navigate`).
 */
export function loadNavigationWhenIdle(): void {
  if (document.documentElement.dataset['dev']) return followDevUpdatesFromStart();
  const load = () => {
    if (!useUi.getState().searchOpen) return void loadNavigation().catch(() => {});
    const unsubscribe = useUi.subscribe(({ searchOpen }) => {
      if (searchOpen) return;
      unsubscribe();
      loadNavigationWhenIdle();
    });
  };
  setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
    else load();
  }, UNASKED_LOAD_DELAY_MS);
}

/**
 * `npm run dev` (dev/live.ts sets the flag): a writer's edit is shown through navigation, which loads at
 * once; an edit the dev client reports before it runs waits for it.
 */
function followDevUpdatesFromStart(): void {
  const show = (event: Event) =>
    void loadNavigation().then(
      (navigation) => navigation.showDevUpdate((event as CustomEvent<DevUpdate | undefined>).detail),
      () => {},
    );
  window.addEventListener(DEV_CONTENT_EVENT, show);
  loadNavigation().catch(() => {});
}

/**
 * Whether a tap on a same-site link is the app's to answer: not once navigation has failed to load (the
 * banner says links are plain page loads until its Retry).
 */
export const navigationAnswersLinks = (): boolean => !failed;

/** Shows `route` (a path without the base, with any `#hash`): at once, or once navigation has loaded. */
export function navigate(route: string): void {
  if (ready) return ready.navigate(route);
  // The tap is under way: the progress bar shows if the wait is long, and the heading being read no
  // longer moves the URL's #hash.
  start?.screen.setState({ pending: true });
  loadNavigation().then(
    (navigation) => navigation.navigate(route),
    () => start && window.location.assign(withBase(start.base, route)),
  );
}

/**
 * A same-site link the reader points at or focuses: navigation loads now, and prefetches its page. Not
 * after navigation failed to load: the banner's Retry asks for it again.
 */
export function linkIntent(anchor: HTMLAnchorElement): void {
  if (ready) return ready.prefetch(anchor);
  if (failed) return;
  preloadPageFiles(anchor);
  loadNavigation().then(
    (navigation) => navigation.prefetch(anchor),
    () => {},
  );
}

/** Files asked for before navigation had loaded, once each. */
const preloaded = new Set<string>();

/**
 * Navigation is still loading: the files the linked page needs that the tab can name (its route shards not
 * read yet, its fragment when the sidebar lists it) are asked for now, not once navigation is there and
 * comes to each; navigation's own requests for them read these.
 */
function preloadPageFiles(anchor: HTMLAnchorElement): void {
  if (!start || anchor.pathname === window.location.pathname) return;
  const { base, files, screen } = start;
  const route = internalTarget(anchor, base)?.replace(/[?#].*$/, '');
  if (route === undefined) return;
  const { shards, fragment } = filesOfRoute(screen.getState(), route);
  const urls = shards.filter((name) => !files.shards.has(name)).map((name) => shardUrl(base, name));
  for (const url of fragment === undefined ? urls : [...urls, fragment]) {
    if (preloaded.has(url)) continue;
    preloaded.add(url);
    preloadFetch(url);
  }
}

/**
 * The URL's `#hash` follows the heading being read, replacing the history entry: through the router once it
 * runs (its location and scroll restoration stay in step), the history's own entry before.
 */
export function replaceHash(hash: string): void {
  if (ready) return ready.replaceHash(hash);
  const url = new URL(window.location.href);
  url.hash = hash;
  window.history.replaceState(window.history.state, '', url.href);
}

/** Moves the tab onto a new deployment, when the pointer names one (search data that is gone). */
export async function followNewDeployment(signal: AbortSignal): Promise<void> {
  const navigation = await loadNavigation();
  await navigation.switchToNewDeployment(signal);
}
