import { queryOptions, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { POINTER_FILE, type DeploymentFiles } from '../../shared/site-data';
import type { DeploymentPointer } from '../../shared/types';
import { takePointerRequest } from './pointer-request';
import { fetchPointer, networkMode, retryTransient } from './queries';

/**
 * The deployment a tab runs: what its pointer (`version.json`) names, with the base its data files are
 * under. Every query of the site data is keyed by it, so a tab that switches to a new deployment never
 * reads an old one's files.
 */
export interface Deployment extends DeploymentPointer, DeploymentFiles {}

/**
 * The deployment the tab runs, as a query of its own: read from the pointer as the app starts (the boot
 * script's request first), and replaced (`switchDeployment`) when the tab finds a new one.
 */
export const deploymentQuery = (base: string) =>
  queryOptions({
    queryKey: ['deployment', base],
    queryFn: async ({ signal }): Promise<Deployment> => {
      const pointer = await fetchPointer(base + POINTER_FILE, signal, takePointerRequest());
      return { ...pointer, site: { base } };
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: retryTransient,
    networkMode,
  });

/** The deployment the tab runs; the app reads it once it has started. */
export function currentDeployment(queryClient: QueryClient, base: string): Deployment {
  const deployment = queryClient.getQueryData(deploymentQuery(base).queryKey);
  if (!deployment) throw new Error('the deployment is read before the app has started');
  return deployment;
}

/** Reads the deployment the app starts on. */
export async function startDeployment(queryClient: QueryClient, base: string): Promise<Deployment> {
  const deployment = await queryClient.fetchQuery(deploymentQuery(base));
  showManifest(deployment);
  return deployment;
}

/** Moves the tab to `next`: every view reads the new deployment's data from now on. */
export function switchDeployment(queryClient: QueryClient, next: Deployment): void {
  queryClient.setQueryData(deploymentQuery(next.site.base).queryKey, next);
  showManifest(next);
}

/** The `<meta>` that shows which manifest the tab runs on, for tools and tests: the document names none. */
const MANIFEST_META = 'docs-manifest';

function showManifest(deployment: Deployment): void {
  let meta = document.querySelector<HTMLMetaElement>(`meta[name="${MANIFEST_META}"]`);
  if (!meta) {
    meta = Object.assign(document.createElement('meta'), { name: MANIFEST_META });
    document.head.append(meta);
  }
  meta.content = deployment.manifest;
}

/** The deployment the tab runs, for a view (the router's context names the base). */
export function useDeployment(): Deployment {
  const base = useRouteContext({ from: '__root__', select: (context) => context.base });
  return useSuspenseQuery(deploymentQuery(base)).data;
}
