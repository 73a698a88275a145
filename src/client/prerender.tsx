import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { withBase } from '../shared/paths';
import type { Manifest, PageMeta } from '../shared/types';
import { createAppRouter } from './app/router';
import { fragmentQuery, manifestQuery } from './data/queries';

/**
 * Server-side render of one route with the same components the browser hydrates. Bundled for Node by
 * the build; the data is seeded, so no loader fetches anything.
 */
export async function renderRoute(
  manifest: Manifest,
  route: string,
  page: PageMeta | undefined,
  fragmentHtml: string | undefined,
): Promise<string> {
  const queryClient = new QueryClient();
  queryClient.setQueryData(manifestQuery().queryKey, manifest);
  if (page && fragmentHtml !== undefined) queryClient.setQueryData(fragmentQuery(page).queryKey, fragmentHtml);
  const history = createMemoryHistory({ initialEntries: [withBase(manifest.site.base, route)] });
  const router = createAppRouter(manifest.site.base, queryClient, history, true);
  await router.load();
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
