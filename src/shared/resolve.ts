import { canonicalRoute } from './paths';
import type { Manifest, PageMeta } from './types';

export type Resolution =
  { kind: 'page'; page: PageMeta } | { kind: 'redirect'; to: string } | { kind: 'not-found'; route: string };

/** Lookup tables of a manifest, built once per manifest. */
export interface ManifestIndex {
  byRoute: Map<string, PageMeta>;
  byKey: Map<string, PageMeta>;
}

export function indexManifest(manifest: Manifest): ManifestIndex {
  return {
    byRoute: new Map(manifest.pages.map((p) => [p.path, p])),
    byKey: new Map(manifest.pages.map((p) => [p.key, p])),
  };
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
  if (redirected !== undefined) return { kind: 'redirect', to: canonicalRoute(redirected) };
  if (canonical !== routePath && index.byRoute.has(canonical)) return { kind: 'redirect', to: canonical };
  return { kind: 'not-found', route: routePath };
}
