import { withoutBase } from '../../shared/paths';

/** The internal route (with search and hash) an anchor points to, or undefined when it leaves the app. */
export function internalTarget(anchor: HTMLAnchorElement, base: string): string | undefined {
  if (anchor.target && anchor.target !== '_self') return undefined;
  if (anchor.hasAttribute('download') || anchor.origin !== window.location.origin) return undefined;
  // A page of another version built with the site is a page load of that version's own app.
  if (anchor.hasAttribute('data-version-link')) return undefined;
  // Files served beside the pages (images, downloads, markdown twins, llms.txt) load as themselves.
  if (/\.[a-z0-9]+$/i.test(anchor.pathname) && !/\.html?$/i.test(anchor.pathname)) return undefined;
  const route = withoutBase(base, anchor.pathname);
  return route === undefined ? undefined : route + anchor.search + anchor.hash;
}
