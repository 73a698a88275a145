import { startTransition, StrictMode } from 'react';
import { Layout } from '../components/Layout';
import { ScreenContext, type ScreenStore } from '../data/screen';
import { useUi } from '../data/store';
import { restorePlaceAfterReload } from './new-app';
import { retryableChunk } from './lazy-chunk';
import { nextTask } from './next-task';

/**
 * The second half of the app's start (entry.tsx has the data and fills the screen's store): React's DOM
 * renderer, then hydration. Each module is evaluated in a task of its own, and hydration runs as a
 * transition, which React renders in slices that yield to the browser: no step holds the main thread long,
 * so a reader's tap or scroll during the takeover is answered at once. Navigation loads once it has
 * committed (components/Layout.tsx).
 */
const loadDom = retryableChunk('react-dom', () => import('./dom-renderer'));

export async function takeOver(screen: ScreenStore): Promise<void> {
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
        <ScreenContext.Provider value={screen}>
          <Layout />
        </ScreenContext.Provider>
      </StrictMode>,
    );
  });
}
