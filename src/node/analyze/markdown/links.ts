import path from 'node:path/posix';
import { canonicalRoute } from '../../../shared/paths';

export type ResolvedLink =
  | { kind: 'external'; href: string }
  | { kind: 'internal'; route: string; hash: string }
  | { kind: 'anchor'; hash: string }
  | { kind: 'unsafe' };

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel', 'ftp']);

/**
 * Resolves a link as a writer wrote it against the page it is on. Links to `.md` files are relative to
 * the source file; other relative links behave as a browser would at the page's route.
 */
export function resolveLink(href: string, pageRoute: string, pageRelativePath: string): ResolvedLink {
  const trimmed = href.trim();
  const scheme = SCHEME.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme) return SAFE_SCHEMES.has(scheme) ? { kind: 'external', href: trimmed } : { kind: 'unsafe' };
  if (trimmed.startsWith('//')) return { kind: 'external', href: trimmed };
  const hashAt = trimmed.indexOf('#');
  const target = hashAt >= 0 ? trimmed.slice(0, hashAt) : trimmed;
  const hash = hashAt >= 0 ? decodeURIComponentSafe(trimmed.slice(hashAt + 1)) : '';
  const pathPart = target.split('?')[0] ?? '';
  if (pathPart === '') return { kind: 'anchor', hash };
  let absolute: string;
  if (pathPart.startsWith('/')) {
    absolute = pathPart;
  } else if (/\.md$/i.test(pathPart)) {
    absolute = path.join('/', path.dirname(pageRelativePath), pathPart);
  } else {
    absolute = path.join(pageRoute, pathPart);
  }
  const isFile = /\.(md|html?)$/i.test(absolute);
  const route = canonicalRoute(isFile ? absolute : absolute.replace(/\/?$/, '/'));
  return { kind: 'internal', route: decodeURIComponentSafe(route), hash };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
