/**
 * Path rules shared by the build and the app: how a source file becomes a route, how a route becomes a
 * key, and how every variant a reader may type (`x`, `x/index.html`, `x.html`) resolves to one route.
 */

const PAGE_FILE = /(^|\/)(README|index)\.md$/i;

/** `api/auth/README.md` → `/api/auth/`; `api/auth.md` → `/api/auth/`; `README.md` → `/`. */
export function routeFromRelativePath(relativePath: string): string {
  const withoutIndex = relativePath.replace(PAGE_FILE, '$1');
  const withoutExt = withoutIndex.replace(/\.md$/i, '/');
  const trimmed = withoutExt.replace(/^\/+/, '');
  return trimmed === '' ? '/' : `/${trimmed.replace(/\/?$/, '/')}`;
}

/** `/api/auth/` → `api.auth`; `/` → `index`. Safe in a file name; the build adds a suffix on collision. */
export function keyFromRoute(route: string): string {
  const segments = route.split('/').filter(Boolean);
  if (segments.length === 0) return 'index';
  return segments.map((s) => s.toLowerCase().replace(/[^a-z0-9_-]+/g, '-')).join('.');
}

/**
 * The canonical route for a path a reader or writer may use: adds the trailing slash and drops
 * `index.html`, `README.md`, `.html` and `.md` endings. Query and hash are not part of the input.
 */
export function canonicalRoute(path: string): string {
  let p = path.startsWith('/') ? path : `/${path}`;
  p = p.replace(/\/(index\.html?|README\.md|index\.md)$/i, '/');
  p = p.replace(/\.(html?|md)$/i, '/');
  p = p.replace(/\/{2,}/g, '/');
  return p.endsWith('/') ? p : `${p}/`;
}

/** Joins the base (`/docs/`) and a route (`/x/`) into a URL path: `/docs/x/`. */
export function withBase(base: string, route: string): string {
  return base.replace(/\/$/, '') + route;
}

/** Strips the base from a URL path; returns undefined when the path is outside the base. */
export function withoutBase(base: string, pathname: string): string | undefined {
  const root = base.replace(/\/$/, '');
  if (pathname === root) return '/';
  if (!pathname.startsWith(`${root}/`)) return undefined;
  return pathname.slice(root.length);
}

/**
 * The routes whose records the app needs to show `route`: the route as written and its canonical form
 * (the same route for a page's own URL).
 */
export const recordRoutes = (route: string): string[] => [route, canonicalRoute(route)];

/** The routes whose records the app needs to show the page at the URL path `pathname` (`recordRoutes`). */
export const routesAt = (base: string, pathname: string): string[] => recordRoutes(withoutBase(base, pathname) ?? '/');

/** The URL path (under the base) of a page's markdown twin: `/limits/` → `/limits.md`, `/` → `/index.md`. */
export function markdownTwinPath(route: string): string {
  return route === '/' ? '/index.md' : route.replace(/\/$/, '.md');
}
