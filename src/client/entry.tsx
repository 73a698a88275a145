import { QueryClient } from '@tanstack/react-query';
import { describeChunkError, isChunkLoadError } from '../shared/chunk-error';
import { routesAt } from '../shared/paths';
import { startAnalytics, trackPageView } from './app/analytics';
import { retryableChunk } from './app/lazy-chunk';
import { nextTask } from './app/next-task';
import { pageStartAssets } from './app/start-app';
import { startDeployment } from './data/deployment';
import { fragmentQuery, retryTransient } from './data/queries';
import { ensureRouteData } from './data/site-data';

/**
 * Takes over the prerendered page: reads the deployment pointer (requested by the boot script), loads the
 * manifest it names (preloaded by then), seeds the current page's fragment from the DOM so it is not
 * fetched again, then hands over to app/takeover.tsx. The router's package, the app's modules and React's DOM
 * renderer wait in chunks of their own (the boot script preloads them all at once) and are imported one
 * after another, a task apart, so that no one task evaluates the whole app. Until the app has hydrated the page
 * is plain HTML whose links work as ordinary links.
 */
async function start(): Promise<void> {
  const assets = pageStartAssets();
  if (!assets) return;
  // On <html> as `data-hydrated` is: the app has begun (the boot script starts it once the page has painted).
  document.documentElement.dataset['appStarted'] = 'true';
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryTransient } } });
  let data;
  try {
    const deployment = await startDeployment(queryClient, assets.base);
    // The site core, this page's record and its sidebar groups (preloaded too): hydration needs them.
    data = await ensureRouteData(queryClient, deployment, routesAt(assets.base, window.location.pathname));
  } catch (error) {
    showStartupError(error);
    return;
  }
  startAnalytics(data.site.site.analyticsId);
  // The prerendered page is the first page view; the router reports only the navigations after it.
  trackPageView(data.site.site.analyticsId);
  const content = document.getElementById('page-content');
  const key = content?.dataset['pageKey'];
  const page = [...data.records.values()].find((record) => record.key === key);
  if (content && page) queryClient.setQueryData(fragmentQuery(page).queryKey, content.innerHTML);

  try {
    await nextTask();
    await loadRouterLibrary();
    await nextTask();
    const { takeOver } = await loadTakeover();
    await nextTask();
    await takeOver(queryClient, assets.base);
  } catch (error) {
    showStartupError(error);
  }
}

const loadRouterLibrary = retryableChunk('router', () => import('./app/router-library'));
const loadTakeover = retryableChunk('app', () => import('./app/takeover'));

/** The page stays readable; the banner says that navigation falls back to full page loads. */
function showStartupError(error: unknown): void {
  const banner = document.createElement('div');
  banner.className = 'startup-error';
  banner.setAttribute('role', 'alert');
  // The same marker as the page and chunk error views, for tooling and tests: missing, timeout or error.
  banner.dataset['errorType'] = isChunkLoadError(error) ? error.type : 'unknown';
  const reason = isChunkLoadError(error) ? describeChunkError(error) : 'The site data could not be read.';
  const text = document.createElement('span');
  text.textContent = `Site navigation could not start: ${reason} Links still work as normal page loads.`;
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'button';
  retry.textContent = 'Retry';
  retry.addEventListener('click', () => {
    banner.remove();
    void start();
  });
  banner.append(text, retry);
  document.body.prepend(banner);
}

void start();
