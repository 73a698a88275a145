import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { withBase } from '../shared/paths';
import type { SiteData } from '../shared/site-data';
import { createAppRouter } from './app/router';
import { fragmentQuery } from './data/queries';
import { seedRouteData } from './data/site-data';

/**
 * Server-side render of one route with the same components the browser hydrates. Bundled for Node by
 * the build. The query client holds what the app's start loads for the route, taken from the objects
 * the build writes as the data files, so no loader fetches anything and the browser hydrates from the
 * same data.
 */
export async function renderRoute(data: SiteData, route: string, fragmentHtml: string | undefined): Promise<string> {
  const queryClient = new QueryClient();
  const page = seedRouteData(queryClient, data, route);
  if (page && fragmentHtml !== undefined) queryClient.setQueryData(fragmentQuery(page).queryKey, fragmentHtml);
  const { base } = data.core.site;
  const history = createMemoryHistory({ initialEntries: [withBase(base, route)] });
  const router = createAppRouter(base, queryClient, history, true);
  await router.load();
  // Every query the route reads was filled from the data: one that had to fetch (which a prerender cannot)
  // names a file the data lacks, and the document would show an error where the browser shows the page.
  const missed = queryClient.getQueryCache().findAll({ predicate: (query) => query.state.status !== 'success' });
  if (missed.length > 0) {
    const keys = missed.map((query) => JSON.stringify(query.queryKey)).join(', ');
    throw new Error(`prerendering ${route}: the site data has no ${keys}`);
  }
  // In the browser the router renders its matches inside a Suspense boundary that it leaves out on the
  // server; this one puts the same boundary marker into the HTML so hydration lines up.
  return renderToString(
    <Suspense fallback={null}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </Suspense>,
  );
}
