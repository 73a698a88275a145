import { renderToString } from 'react-dom/server';
import type { SiteData } from '../shared/site-data';
import { Layout } from './components/Layout';
import { createScreen, ScreenContext } from './data/screen';
import { screenFromData } from './data/screen-from-data';

/**
 * Server-side render of one route with the same components the browser hydrates. Bundled for Node by
 * the build. The screen holds what the app's start reads for the route, taken from the objects the build
 * writes as the data files, so the browser hydrates from the same data.
 */
// Async as the build's renderer is: a route it cannot render rejects.
export async function renderRoute(data: SiteData, route: string, fragmentHtml: string | undefined): Promise<string> {
  const screen = createScreen(screenFromData(data, route, fragmentHtml));
  await Promise.resolve();
  return renderToString(
    <ScreenContext.Provider value={screen}>
      <Layout />
    </ScreenContext.Provider>,
  );
}
