import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { fetchDeployment, showManifest, type Deployment } from './files';
import { networkMode, retryTransient } from './queries';

export type { Deployment } from './files';

/**
 * The deployment the tab runs, as a query of its own: seeded with the one the app started on, and
 * replaced (`switchDeployment`) when the tab finds a new one.
 */
export const deploymentQuery = (base: string) =>
  queryOptions({
    queryKey: ['deployment', base],
    queryFn: ({ signal }): Promise<Deployment> => fetchDeployment(base, signal),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: retryTransient,
    networkMode,
  });

/** The deployment the tab runs; navigation reads it once it has started. */
export function currentDeployment(queryClient: QueryClient, base: string): Deployment {
  const deployment = queryClient.getQueryData(deploymentQuery(base).queryKey);
  if (!deployment) throw new Error('the deployment is read before the app has started');
  return deployment;
}

/** Moves the tab to `next`: every route loaded from now on reads the new deployment's data. */
export function switchDeployment(queryClient: QueryClient, next: Deployment): void {
  queryClient.setQueryData(deploymentQuery(next.site.base).queryKey, next);
  showManifest(next);
}
