import { routesAt, withoutBase } from '../shared/paths';
import type { ShardPage } from '../shared/site-data';
import { startAnalytics, trackPageView } from './app/analytics';
import { retryableChunk } from './app/lazy-chunk';
import { prepareNavigation } from './app/navigation-loader';
import { nextTask } from './app/next-task';
import { pageStartAssets } from './app/start-app';
import { showStartupError } from './app/startup-error';
import { fetchDeployment, fetchFragment, showManifest } from './data/files';
import { plainFiles, readRouteData } from './data/route-data';
import { createScreen, type View } from './data/screen';

/**
 * Takes over the prerendered page: reads the deployment pointer (requested by the boot script), the
 * manifest it names and the page's route data (preloaded by then) with the data module's plain fetch
 * functions, takes the page's content from the DOM, and fills the screen's store with what the document
 * shows; then hands over to app/takeover.tsx, which hydrates. The app's modules and React's DOM renderer
 * wait in chunks of their own (the boot script preloads them all at once) and are imported one after
 * another, a task apart, so that no one task evaluates the whole app. Navigation (the router and its data
 * cache) loads after that. Until the app has hydrated the page is plain HTML whose links work as ordinary
 * links.
 */
async function start(): Promise<void> {
  const assets = pageStartAssets();
  if (!assets) return;
  // On <html> as `data-hydrated` is: the app has begun (the boot script starts it once the page has painted).
  document.documentElement.dataset['appStarted'] = 'true';
  const { base } = assets;
  let screen;
  let files;
  try {
    const deployment = await fetchDeployment(base, undefined);
    showManifest(deployment);
    // The site core, this page's record and its sidebar groups (preloaded too): hydration needs them.
    files = await readRouteData(plainFiles, deployment, routesAt(base, window.location.pathname));
    const route = withoutBase(base, window.location.pathname) ?? '/';
    const view = await documentView([...files.records.values()], files.records.get(route));
    screen = createScreen({
      deployment,
      site: files.site,
      // The page's own route, as the document was rendered for it (the router follows a redirect later).
      route: view.kind === 'page' ? view.page.path : route,
      view,
      groups: files.groups,
      groupErrors: new Map(),
      pending: false,
    });
  } catch (error) {
    showStartupError(error, () => void start());
    return;
  }
  startAnalytics(files.site.site.analyticsId);
  // The prerendered page is the first page view; navigation reports only the navigations after it.
  trackPageView(files.site.site.analyticsId);
  prepareNavigation({ base, screen, files });

  try {
    await nextTask();
    const { takeOver } = await loadTakeover();
    await nextTask();
    await takeOver(screen);
  } catch (error) {
    showStartupError(error, () => void start());
  }
}

/**
 * What the document shows: the page whose content it holds (read from the DOM, not fetched again), or the
 * not-found page. A document older than the deployment the pointer names shows that deployment's record
 * of its route, whose content is fetched.
 */
async function documentView(records: ShardPage[], own: ShardPage | undefined): Promise<View> {
  const content = document.getElementById('page-content');
  const key = content?.dataset['pageKey'];
  const page = records.find((record) => record.key === key);
  if (content && page) return { kind: 'page', page, html: content.innerHTML };
  if (content && own) return { kind: 'page', page: own, html: await fetchFragment(own, undefined) };
  return { kind: 'not-found' };
}

const loadTakeover = retryableChunk('app', () => import('./app/takeover'));

void start();
