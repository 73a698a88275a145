import type { QueryClient } from '@tanstack/react-query';
import { isChunkLoadError } from '../../shared/chunk-error';
import { recordRoutes } from '../../shared/paths';
import { POINTER_FILE, type ShardPage } from '../../shared/site-data';
import { currentDeployment, switchDeployment, type Deployment } from '../data/deployment';
import { fetchPointer } from '../data/files';
import { ensureQuery, fragmentQuery } from '../data/queries';
import { ensureRouteData, siteQuery, type RouteData } from '../data/site-data';
import { claimReload } from './new-app';

/**
 * Loads a page's fragment for the router. A newer navigation aborts the signal, which cancels the fetch.
 * When the fragment is gone (a new deployment replaced it), the tab recovers by itself: it re-reads the
 * deployment pointer, switches to the new manifest and loads the page's new fragment; only if that
 * fails does it reload the page once, guarded so it can never loop.
 */
export async function loadFragment(
  queryClient: QueryClient,
  base: string,
  page: ShardPage,
  signal: AbortSignal,
): Promise<{ page: ShardPage; html: string }> {
  try {
    return { page, html: await ensureFragment(queryClient, page, signal) };
  } catch (error) {
    if (signal.aborted || !isChunkLoadError(error) || error.type !== 'missing') throw error;
    const updated = await switchToNewDeployment(queryClient, base, signal);
    // Same deployment: the file is really missing, so the reader gets the explanation and Retry.
    if (!updated) throw error;
    const fresh = (await ensureRouteData(queryClient, updated, [page.path], signal)).records.get(page.path);
    if (!fresh) throw error;
    try {
      return { page: fresh, html: await ensureFragment(queryClient, fresh, signal) };
    } catch (retryError) {
      if (!signal.aborted && reloadOnce(base.replace(/\/$/, '') + page.path, updated.hash)) {
        await new Promise(() => {}); // the reload replaces this document
      }
      throw retryError;
    }
  }
}

function ensureFragment(queryClient: QueryClient, page: ShardPage, signal: AbortSignal): Promise<string> {
  return ensureQuery(queryClient, fragmentQuery(page), signal);
}

/**
 * The site core and the records a route needs (its own, and its canonical form's), for the router. A
 * route shard that is gone means a new deployment replaced it: the tab switches to that deployment as
 * it does for a fragment; with no new deployment, the reader gets the explanation and Retry.
 */
export async function loadRouteData(
  queryClient: QueryClient,
  base: string,
  route: string,
  signal: AbortSignal,
): Promise<RouteData> {
  const routes = recordRoutes(route);
  try {
    return await ensureRouteData(queryClient, currentDeployment(queryClient, base), routes, signal);
  } catch (error) {
    if (signal.aborted || !isChunkLoadError(error) || error.type !== 'missing') throw error;
    const updated = await switchToNewDeployment(queryClient, base, signal);
    if (!updated) throw error;
    return ensureRouteData(queryClient, updated, routes, signal);
  }
}

/**
 * Re-reads the unhashed deployment pointer; returns the new deployment when it changed (its site core
 * loaded, and the tab switched to it), and undefined when it did not or the pointer cannot be read
 * (nothing then says the page moved). When the pointer names a new deployment whose manifest fails to
 * load, that failure is thrown: it is why the page cannot be shown, and a 500 or a timeout there must
 * not be reported as the old file's `missing`.
 */
export async function switchToNewDeployment(
  queryClient: QueryClient,
  base: string,
  signal: AbortSignal,
): Promise<Deployment | undefined> {
  const current = currentDeployment(queryClient, base);
  let next: Deployment;
  try {
    next = { ...(await fetchPointer(base + POINTER_FILE, signal)), site: { base } };
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
  if (next.hash === current.hash) return undefined;
  await ensureQuery(queryClient, siteQuery(next), signal);
  switchDeployment(queryClient, next);
  return next;
}

/** One full reload per target and deployment; a second failure shows the error instead of looping. */
function reloadOnce(url: string, deploymentHash: string): boolean {
  if (!claimReload(`${url}@${deploymentHash}`)) return false;
  window.location.assign(url);
  return true;
}
