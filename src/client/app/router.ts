import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, notFound, redirect } from '@tanstack/react-router';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';
import { resolveRoute } from '../../shared/resolve';
import type { ShardPage } from '../../shared/site-data';
import { loadFragment, loadRouteData } from './load-fragment';
import { followWindowTop, windowAtTop } from './window-top';

export interface RouterContext {
  queryClient: QueryClient;
  /** The site's base: it names the deployment query (src/client/data/deployment.ts). */
  base: string;
}

/**
 * The routes hold no components: the router runs without a provider (app/navigation.ts), and what it
 * resolves — a page with its content, not-found, an error — is shown through the screen's store.
 */
const rootRoute = createRootRouteWithContext<RouterContext>()({});

/** Every documentation page is data, so one splat route serves them all. */
const pageRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  beforeLoad: async ({ context, location, abortController }) => {
    const { site, records } = await loadRouteData(
      context.queryClient,
      context.base,
      location.pathname,
      abortController.signal,
    );
    const resolution = resolveRoute(site.redirects, (route) => records.get(route), location.pathname);
    if (resolution.kind === 'redirect') {
      throw redirect({ to: resolution.to, hash: location.hash || resolution.hash || undefined, replace: true });
    }
    if (resolution.kind === 'not-found') throw notFound();
    return { page: resolution.page };
  },
  loader: async ({ context, abortController }): Promise<{ page: ShardPage; html: string }> =>
    loadFragment(context.queryClient, context.base, context.page, abortController.signal),
});

const routeTree = rootRoute.addChildren([pageRoute]);

/**
 * `traversing`: whether the navigation being shown is back or forward (its scroll position is restored).
 */
export function createAppRouter(base: string, queryClient: QueryClient, traversing: () => boolean = () => false) {
  // The first render takes over a page the browser has already placed: at its #heading, where a reload
  // left it, or where the reader scrolled while the app was starting. The router would move it to the
  // top; it restores and resets scroll only for the navigations after that. A new page without a #heading
  // while the window is at its top has nothing to move: the router's scroll would only lay the page out
  // before its first frame.
  let firstRender = true;
  followWindowTop();
  const restoreScroll = ({ location }: { location: { hash: string } }) => {
    const restore = !firstRender;
    firstRender = false;
    return restore && (traversing() || location.hash !== '' || !windowAtTop());
  };
  return createRouter({
    routeTree,
    basepath: base.replace(/\/$/, ''),
    trailingSlash: 'preserve',
    context: { queryClient, base },
    scrollRestoration: restoreScroll,
    defaultStaleTime: Infinity,
    defaultPreloadStaleTime: Infinity,
    // The current page stays on screen until the next one is ready (or has failed): never a blank pending view.
    defaultPendingMs: CHUNK_LOAD_TIMEOUT_MS * 2,
    defaultPreload: false,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

export { pageRoute };

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
