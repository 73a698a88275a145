import { QueryClient } from '@tanstack/react-query';
import { isNotFound } from '@tanstack/react-router';
import type { DevUpdate } from '../../shared/dev-update';
import type { ShardPage } from '../../shared/site-data';
import { currentDeployment, type Deployment } from '../data/deployment';
import { ensureQuery, retryTransient } from '../data/queries';
import type { RouteFiles } from '../data/route-data';
import { nextViewRendered, readGroupsWith, type ScreenStore, type View } from '../data/screen';
import { seedQueries, sidebarGroupQuery, siteQuery } from '../data/site-data';
import { showDevUpdate } from '../dev/updates';
import { linkPrefetcher, routeLocation } from './link-prefetch';
import { switchToNewDeployment } from './load-fragment';
import { followNavigations } from './navigation-effects';
import { nextTask } from './next-task';
import { createAppRouter, pageRoute, type AppRouter } from './router';
import { prefetchRouteShards } from './shard-prefetch';
import { prefetchLinksInView } from './viewport-prefetch';
import { endWholeLayoutAfterPaint, layOutWhole } from './whole-layout';

/** What navigation starts from (app/navigation-loader.ts): the screen the page was hydrated with. */
export interface NavigationStart {
  base: string;
  screen: ScreenStore;
  /** The data files the app's start read: navigation's cache starts with them, and fetches none again. */
  files: Omit<RouteFiles, 'records'>;
}

export interface Navigation {
  /** Shows `route` (a path without the base, with any `#hash`), adding a history entry. */
  navigate(route: string): void;
  /** Replaces the current entry's `#hash` (empty: none), without scrolling. */
  replaceHash(hash: string): void;
  prefetch(anchor: HTMLAnchorElement): void;
  switchToNewDeployment(signal: AbortSignal): Promise<unknown>;
  /** `npm run dev`: a rebuild wrote new content (`update`, when the dev server named it); the page is shown again from it, in place. */
  showDevUpdate(update?: DevUpdate): void;
}

/**
 * Starts navigation on a page the app has hydrated. TanStack Router runs without a provider: it owns the
 * location, the history, redirects, the loaders (with React Query as their cache) and scroll restoration,
 * and each navigation it commits is handed to the screen's store, which is all the components read. A
 * provider would render its own tree, which the page hydrated without it cannot take on; and the screen
 * then needs no router code to render, so the first visit loads none.
 */
export async function startNavigation({ base, screen, files }: NavigationStart): Promise<Navigation> {
  // A task apart from evaluating the chunk, and from the first load below: none of them is long.
  await nextTask();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryTransient } } });
  const { deployment, view, groups } = screen.getState();
  const shown = view.kind === 'page' ? view : undefined;
  seedQueries(queryClient, deployment, { ...files, groups: new Map([...files.groups, ...groups]) }, shown);
  readGroupsWith((from, name) => ensureQuery(queryClient, sidebarGroupQuery(from, name), undefined));
  followDeployment(queryClient, screen);

  let traversing = false;
  const router = createAppRouter(base, queryClient, () => traversing);
  // The router's hook for its framework adapter: it commits a navigation's matches, the screen shows them,
  // and the router's scroll restoration and `onRendered` come once the DOM has them.
  router.startTransition = async (commit) => {
    commit();
    await show(router, queryClient, base, screen);
    return true;
  };
  // What the adapter's provider does: history changes (links, back and forward) load the router. Back and
  // forward restore a scroll position by number: the page they show is laid out whole for it.
  router.history.subscribe(({ action }) => {
    traversing = action.type !== 'PUSH' && action.type !== 'REPLACE';
    if (traversing) layOutWhole();
    void router.load();
  });
  router.subscribe('onRendered', endWholeLayoutAfterPaint);
  await nextTask();
  // The current page, from the seeded cache: nothing is fetched, and the screen keeps what it shows (a
  // redirect or a page that is gone since is followed now).
  await router.load();
  // The router restores on back and forward what scrolled since its last load; the reader may have
  // scrolled the page before navigation loaded, and that scroll is the window's.
  document.dispatchEvent(new Event('scroll'));

  router.subscribe('onBeforeLoad', (event) => {
    if (event.pathChanged || event.hrefChanged) screen.setState({ pending: true });
  });
  router.subscribe('onResolved', () => screen.setState({ pending: false }));
  followNavigations(router, screen);
  const prefetch = linkPrefetcher(router, base, queryClient, screen);
  prefetchLinksInView(router, prefetch);
  const started = screen.getState();
  prefetchRouteShards(queryClient, started.deployment, started.site);

  return {
    navigate: (route) => void router.navigate(routeLocation(route)),
    replaceHash: (hash) =>
      void router.navigate({
        ...routeLocation(router.state.location.pathname),
        hash: hash || undefined,
        replace: true,
        resetScroll: false,
        hashScrollIntoView: false,
      }),
    prefetch: (anchor) => void prefetch(anchor),
    switchToNewDeployment: (signal) => switchToNewDeployment(queryClient, base, signal),
    showDevUpdate: (update) => showDevUpdate(queryClient, router, base, update),
  };
}

/** Puts what the router has committed on the screen; resolves once the DOM shows it. */
async function show(router: AppRouter, queryClient: QueryClient, base: string, screen: ScreenStore): Promise<void> {
  const now = screen.getState();
  const match = router.state.matches.find((m) => m.routeId === pageRoute.id);
  const view = viewOf(match, now.view, () => void router.invalidate());
  const deployment = currentDeployment(queryClient, base);
  const site = queryClient.getQueryData(siteQuery(deployment).queryKey) ?? now.site;
  const route = router.state.location.pathname;
  const sameDeployment = deployment.hash === now.deployment.hash;
  const groups = new Map(sameDeployment ? now.groups : []);
  for (const g of view.kind === 'page' ? view.page.groups : []) {
    const name = site.sidebar[g]?.file;
    const file =
      name === undefined ? undefined : queryClient.getQueryData(sidebarGroupQuery(deployment, name).queryKey);
    if (file) groups.set(g, file);
  }
  if (view === now.view && route === now.route && site === now.site && groups.size === now.groups.size) return;
  const rendered = view === now.view ? undefined : nextViewRendered();
  screen.setState({
    view,
    route,
    site,
    deployment,
    groups,
    ...(sameDeployment ? {} : { groupErrors: new Map() }),
  });
  await rendered;
}

type PageMatch = { status: string; error?: unknown; loaderData?: unknown } | undefined;

/** The view of the page route's match; the one shown when it is the same page with the same content. */
function viewOf(match: PageMatch, current: View, retry: () => void): View {
  const loaded = match?.status === 'success' ? (match.loaderData as { page: ShardPage; html: string }) : undefined;
  if (loaded) {
    const same = current.kind === 'page' && current.page === loaded.page && current.html === loaded.html;
    return same ? current : { kind: 'page', page: loaded.page, html: loaded.html };
  }
  if (match?.status === 'error' && !isNotFound(match.error)) return { kind: 'error', error: match.error, retry };
  return current.kind === 'not-found' ? current : { kind: 'not-found' };
}

/** A new deployment the tab moved to (a page or search data that was gone) is the screen's from then on. */
function followDeployment(queryClient: QueryClient, screen: ScreenStore): void {
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryKey[0] !== 'deployment') return;
    const deployment = event.query.state.data as Deployment | undefined;
    if (!deployment || deployment.hash === screen.getState().deployment.hash) return;
    const site = queryClient.getQueryData(siteQuery(deployment).queryKey);
    if (site) screen.setState({ deployment, site, groups: new Map(), groupErrors: new Map() });
  });
}
