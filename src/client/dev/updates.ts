import type { QueryClient } from '@tanstack/react-query';
import type { DevUpdate } from '../../shared/dev-update';
import { routesAt } from '../../shared/paths';
import { switchDeployment, type Deployment } from '../data/deployment';
import { ensureQuery, fragmentQuery } from '../data/queries';
import { routeShardQuery, siteQuery } from '../data/site-data';
import { switchToNewDeployment } from '../app/load-fragment';
import type { AppRouter } from '../app/router';

/** The last update asked for: one that finishes after a later one is not shown over it. */
let latest = 0;

/**
 * `npm run dev`'s rebuilds, in the app: once the dev client (live.ts) says the content changed, the app
 * reads the new deployment, then shows the current route again from its data. An update it cannot read
 * reloads the page.
 *
 * With the `update` the dev server sent, the tab asks for the new manifest, and for a page shown that the
 * rebuild wrote again its route shard and fragment, all at once; the router then finds them read and
 * renders the page once. Without it (an older version's site), it reads the deployment from `version.json`
 * as a tab of the built site finds a new deployment, and the router reads the rest after.
 */
export function showDevUpdate(queryClient: QueryClient, router: AppRouter, base: string, update?: DevUpdate): void {
  const asked = ++latest;
  const signal = new AbortController().signal;
  const reading: Promise<unknown> = update
    ? readUpdate(queryClient, base, update, asked)
    : switchToNewDeployment(queryClient, base, signal);
  reading
    .then(() => (asked === latest ? router.invalidate({ forcePending: true }) : undefined))
    .catch((error: unknown) => {
      console.warn('docs dev: could not apply the update, reloading', error);
      window.location.reload();
    });
}

/** Reads what the tab shows of `update`, side by side, and moves the tab to its deployment. */
async function readUpdate(queryClient: QueryClient, base: string, update: DevUpdate, asked: number): Promise<void> {
  const deployment: Deployment = { ...update.pointer, site: { base } };
  const routes = routesAt(base, window.location.pathname);
  const shown = update.pages.filter((page) => routes.includes(page.path));
  await Promise.all([
    ensureQuery(queryClient, siteQuery(deployment), undefined),
    ...shown.map((page) => ensureQuery(queryClient, routeShardQuery(deployment, page.shard), undefined)),
    ...shown.map((page) => ensureQuery(queryClient, fragmentQuery(page), undefined)),
  ]);
  if (asked === latest) switchDeployment(queryClient, deployment);
}
