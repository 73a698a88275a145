import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { startTransition, StrictMode } from 'react';
import { useUi } from '../data/store';
import { followDevUpdates } from '../dev/updates';
import { restorePlaceAfterReload } from './new-app';
import { retryableChunk } from './lazy-chunk';
import { nextTask } from './next-task';
import { createAppRouter } from './router';

/**
 * The second half of the app's start (entry.tsx has the data): the router, then React's DOM renderer, then
 * hydration. Each module is evaluated in a task of its own, and hydration runs as a transition, which React
 * renders in slices that yield to the browser: no step holds the main thread long, so a reader's tap or
 * scroll during the takeover is answered at once.
 */
const loadDom = retryableChunk('react-dom', () => import('./dom-renderer'));

export async function takeOver(queryClient: QueryClient, base: string): Promise<void> {
  const router = createAppRouter(base, queryClient);
  // `npm run dev` only (src/client/dev/live.ts sets the flag): a rebuild re-renders the page in place.
  if (document.documentElement.dataset['dev']) followDevUpdates(queryClient, router, base);
  await router.load();
  await nextTask();
  const { hydrateRoot } = await loadDom();
  await nextTask();
  const root = document.getElementById('app');
  if (!root) return;
  // After a reload onto a new app (app/new-app.ts): where the reader was, with what they were opening.
  useUi.getState().setReopening(restorePlaceAfterReload() ?? '');
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    );
  });
}
