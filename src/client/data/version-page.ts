import { canonicalRoute, withBase } from '../../shared/paths';
import { resolveRoute } from '../../shared/resolve';
import { POINTER_FILE } from '../../shared/site-data';
import { fetchPointer, fetchRouteShard, fetchSiteCore, type Deployment } from './files';
import { shardNameOf } from './route-data';

/**
 * The URL of a page in another version built with the site (its base, `/docs/v1/`): the same route when
 * that version has it, or the page its redirects lead the route to, else that version's home. Read from
 * the version's own data files, as its app would read them: its pointer, its manifest's redirects, and
 * the route shard that would hold the page. A version whose data cannot be read leads to its home, which
 * the browser then loads and shows as that version's app does, with its own error if it has one.
 */
export async function pageInVersion(base: string, route: string): Promise<string> {
  try {
    const pointer = await fetchPointer(base + POINTER_FILE, undefined);
    const deployment: Deployment = { ...pointer, site: { base } };
    const core = await fetchSiteCore(deployment, undefined);
    // The version's redirects first, as its app applies them: the shard of the route they lead to holds the page.
    const redirect = resolveRoute(core.redirects, () => undefined, route);
    const target = redirect.kind === 'redirect' ? redirect.to : canonicalRoute(route);
    const name = shardNameOf(core, target);
    const shard = name === undefined ? undefined : await fetchRouteShard(deployment, name, undefined);
    if (!shard?.pages.some((page) => page.path === target)) return base;
    const hash = redirect.kind === 'redirect' && redirect.hash ? `#${redirect.hash}` : '';
    return withBase(base, target) + hash;
  } catch {
    return base;
  }
}

/** Follows a link to another version's page (`data-version-base`): to the same page there, or its home. */
export function goToVersion(event: { preventDefault: () => void }, base: string, route: string): void {
  event.preventDefault();
  void pageInVersion(base, route).then((url) => window.location.assign(url));
}
