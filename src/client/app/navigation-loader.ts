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
 * as soon as the page has been taken over (started once the search dialog is closed). Until it is there
 * the screen is the prerendered page, hydrated; a reader's intent meanwhile (a pointer over or focus on a
 * same-site link) asks for the linked page's files, and a tap on a link waits for the chunk and then
 * navigates, or, should the chunk fail to load, becomes the plain page load the link is.
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
  markAsked();
  return load();
}

/** Resolves once navigation is asked for (`loadNavigation`): its start then waits for nothing else. */
let markAsked = () => {};
const asked = new Promise<void>((resolve) => (markAsked = resolve));

/** `loadNavigation`; `beforeStart`, for a load nobody asked for, holds the start until it resolves. */
function load(beforeStart?: () => Promise<void>): Promise<Navigation> {
  const from = start;
  if (!from) return Promise.reject(new Error('navigation is asked for before the app has started'));
  if (loading) return loading;
  // Loading again (Retry): a tap from now on waits for it.
  failed = false;
  loading = loadChunk()
    .then(async ({ startNavigation }) => {
      await beforeStart?.();
      return startNavigation(from);
    })
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
 * Loads navigation as soon as the page has been taken over, with no intent asked for: a reader's first
 * tap on a link comes right after the takeover, and would otherwise wait for the chunk's request, its
 * evaluation and the router's first load. The takeover's own tasks are done by then, and each step of the
 * load is a task of its own (`startNavigation`). While the search dialog is open, navigation does not start
 * (its first load and the prefetches it begins would hold up the reader's results): it starts once the
 * dialog closes, or at once when asked for (a result picked, search data that moved to a new deployment).
 */
export function loadNavigationAfterTakeover(): void {
  if (document.documentElement.dataset['dev']) return followDevUpdatesFromStart();
  load(() => Promise.race([searchClosed(), asked])).catch(() => {});
}

/** Resolves once the search dialog is closed (at once when it is). */
function searchClosed(): Promise<void> {
  return new Promise((resolve) => {
    if (!useUi.getState().searchOpen) return resolve();
    const unsubscribe = useUi.subscribe(({ searchOpen }) => {
      if (searchOpen) return;
      unsubscribe();
      resolve();
    });
  });
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
