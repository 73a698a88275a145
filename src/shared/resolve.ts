import { canonicalRoute } from './paths';
import type { Manifest, PageMeta, SidebarLink } from './types';

export type Resolution<P extends PageMeta = PageMeta> =
  | { kind: 'page'; page: P }
  /** `hash` is the redirect's own `#section` (without `#`), when its target names one. */
  | { kind: 'redirect'; to: string; hash?: string }
  | { kind: 'not-found'; route: string };

/** Lookup tables of a whole manifest, for the build. */
export interface ManifestIndex {
  byRoute: ReadonlyMap<string, PageMeta>;
  byKey: ReadonlyMap<string, PageMeta>;
  /** The sidebar's links in reading order, and where each route sits in it. */
  sidebarOrder: readonly SidebarLink[];
  sidebarPosition: ReadonlyMap<string, number>;
}

/** The lookup tables of `manifest`: built once by the caller, which keeps them while it uses them. */
export function indexManifest(manifest: Pick<Manifest, 'sidebar' | 'pages'>): ManifestIndex {
  const sidebarOrder = manifest.sidebar.flatMap((group) => group.items);
  const sidebarPosition = new Map<string, number>();
  sidebarOrder.forEach((item, i) => {
    if (!sidebarPosition.has(item.link)) sidebarPosition.set(item.link, i);
  });
  return {
    byRoute: new Map(manifest.pages.map((p) => [p.path, p])),
    byKey: new Map(manifest.pages.map((p) => [p.key, p])),
    sidebarOrder,
    sidebarPosition,
  };
}

/**
 * What a route path (without the base) shows: the page, a redirect to the canonical or renamed route
 * (`x` → `x/`, `x/index.html` → `x/`, the redirect table), or the not-found page. `find` gives a route's
 * page record, when it has one: the app looks in the route shards it loaded for the path.
 */
export function resolveRoute<P extends PageMeta>(
  redirects: Manifest['redirects'],
  find: (route: string) => P | undefined,
  routePath: string,
): Resolution<P> {
  const page = find(routePath);
  if (page) return { kind: 'page', page };
  const canonical = canonicalRoute(routePath);
  const redirected = redirects[canonical] ?? redirects[canonical.replace(/\/$/, '')];
  if (redirected !== undefined) {
    const [to = '', hash] = redirected.split('#', 2);
    return hash ? { kind: 'redirect', to: canonicalRoute(to), hash } : { kind: 'redirect', to: canonicalRoute(to) };
  }
  if (canonical !== routePath && find(canonical)) return { kind: 'redirect', to: canonical };
  return { kind: 'not-found', route: routePath };
}
