import { canonicalRoute } from './paths';
import type { Manifest, PageMeta, SidebarLink } from './types';

export type Resolution =
  | { kind: 'page'; page: PageMeta }
  /** `hash` is the redirect's own `#section` (without `#`), when its target names one. */
  | { kind: 'redirect'; to: string; hash?: string }
  | { kind: 'not-found'; route: string };

/** Lookup tables of a manifest. */
export interface ManifestIndex {
  byRoute: ReadonlyMap<string, PageMeta>;
  byKey: ReadonlyMap<string, PageMeta>;
  /** The sidebar's links in reading order, and where each route sits in it. */
  sidebarOrder: readonly SidebarLink[];
  sidebarPosition: ReadonlyMap<string, number>;
}

const indexes = new WeakMap<Manifest, ManifestIndex>();

/**
 * Built once per manifest object and then shared: every navigation and every prerendered route looks
 * pages up, and rebuilding the tables each time made a 2,000-page prerender quadratic.
 */
export function indexManifest(manifest: Manifest): ManifestIndex {
  let index = indexes.get(manifest);
  if (!index) {
    const sidebarOrder = manifest.sidebar.flatMap((group) => group.items);
    const sidebarPosition = new Map<string, number>();
    sidebarOrder.forEach((item, i) => {
      if (!sidebarPosition.has(item.link)) sidebarPosition.set(item.link, i);
    });
    index = {
      byRoute: new Map(manifest.pages.map((p) => [p.path, p])),
      byKey: new Map(manifest.pages.map((p) => [p.key, p])),
      sidebarOrder,
      sidebarPosition,
    };
    indexes.set(manifest, index);
  }
  return index;
}

/**
 * What a route path (without the base) shows: the page, a redirect to the canonical or renamed route
 * (`x` → `x/`, `x/index.html` → `x/`, the redirect table), or the not-found page.
 */
export function resolveRoute(manifest: Manifest, index: ManifestIndex, routePath: string): Resolution {
  const page = index.byRoute.get(routePath);
  if (page) return { kind: 'page', page };
  const canonical = canonicalRoute(routePath);
  const redirected = manifest.redirects[canonical] ?? manifest.redirects[canonical.replace(/\/$/, '')];
  if (redirected !== undefined) {
    const [to = '', hash] = redirected.split('#', 2);
    return hash ? { kind: 'redirect', to: canonicalRoute(to), hash } : { kind: 'redirect', to: canonicalRoute(to) };
  }
  if (canonical !== routePath && index.byRoute.has(canonical)) return { kind: 'redirect', to: canonical };
  return { kind: 'not-found', route: routePath };
}
