import type { QueryClient } from '@tanstack/react-query';
import { switchToNewDeployment } from '../app/load-fragment';
import type { AppRouter } from '../app/router';

/**
 * `npm run dev`'s rebuilds, in the app: once the dev client (live.ts) says the content changed, the app
 * reads the new deployment from `version.json`, as a tab of the built site finds a new deployment, then
 * shows the current route again from its data. An update it cannot read reloads the page.
 */
export function showDevUpdate(queryClient: QueryClient, router: AppRouter, base: string): void {
  switchToNewDeployment(queryClient, base, new AbortController().signal)
    .then(() => router.invalidate({ forcePending: true }))
    .catch((error: unknown) => {
      console.warn('docs dev: could not apply the update, reloading', error);
      window.location.reload();
    });
}
