import type { PageMeta } from '../../shared/types';
import {
  POINTER_FILE,
  shardUrl,
  sidebarGroupUrl,
  type DeploymentFiles,
  type RouteShard,
  type SidebarGroupFile,
  type SiteCore,
} from '../../shared/site-data';
import type { DeploymentPointer } from '../../shared/types';
import { fetchChunk } from './fetch-chunk';
import { parseFragment, parsePointer, parseRouteShard, parseSidebarGroup, parseSiteCore } from './parse';
import { takePointerRequest } from './pointer-request';

/**
 * The site's data files, one fetch function each. The app's start calls them as they are; once navigation
 * has loaded, React Query's query functions call the same ones (src/client/data/queries.ts).
 */

/**
 * The deployment a tab runs: what its pointer (`version.json`) names, with the base its data files are
 * under. Every data file the app reads belongs to one, so a tab that switches to a new deployment never
 * reads an old one's files.
 */
export interface Deployment extends DeploymentPointer, DeploymentFiles {}

/** The deployment pointer at `url`, past any cache; `started`: a request for it made earlier, to read. */
export const fetchPointer = (url: string, signal: AbortSignal | undefined, started?: Promise<Response>) =>
  fetchChunk(url, 'version', signal, parsePointer, { cache: 'no-cache' }, started);

/** The deployment the pointer names now (the boot script's request first, when it is still unread). */
export async function fetchDeployment(base: string, signal: AbortSignal | undefined): Promise<Deployment> {
  const pointer = await fetchPointer(base + POINTER_FILE, signal, takePointerRequest());
  return { ...pointer, site: { base } };
}

/** The browser's manifest: the site's settings, redirects, search files and sidebar headings. */
export const fetchSiteCore = (deployment: Deployment, signal: AbortSignal | undefined): Promise<SiteCore> =>
  fetchChunk(deployment.manifest, 'manifest', signal, parseSiteCore);

/** The route shard named `name` (`SiteCore.shards`): the page records whose route hashes to it. */
export const fetchRouteShard = (deployment: Deployment, name: string, signal: AbortSignal | undefined) =>
  fetchChunk(shardUrl(deployment.site.base, name), `routes-${name}`, signal, parseRouteShard) as Promise<RouteShard>;

/** The entries of a folded sidebar group, by its file's name (`SidebarGroup.file`). */
export const fetchSidebarGroup = (deployment: Deployment, name: string, signal: AbortSignal | undefined) =>
  fetchChunk(
    sidebarGroupUrl(deployment.site.base, name),
    `sidebar-${name}`,
    signal,
    parseSidebarGroup,
  ) as Promise<SidebarGroupFile>;

/** A page's content: the HTML fragment the build wrote for it. */
export const fetchFragment = (
  page: Pick<PageMeta, 'fragment' | 'key'>,
  signal: AbortSignal | undefined,
): Promise<string> => fetchChunk(page.fragment, page.key, signal, parseFragment);

/** The `<meta>` that shows which manifest the tab runs on, for tools and tests: the document names none. */
const MANIFEST_META = 'docs-manifest';

export function showManifest(deployment: Deployment): void {
  let meta = document.querySelector<HTMLMetaElement>(`meta[name="${MANIFEST_META}"]`);
  if (!meta) {
    meta = Object.assign(document.createElement('meta'), { name: MANIFEST_META });
    document.head.append(meta);
  }
  meta.content = deployment.manifest;
}
