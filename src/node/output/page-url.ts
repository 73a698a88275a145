import { withBase } from '../../shared/paths';

/**
 * A page's absolute URL, percent-encoded as the links in its documents are (`encodeURI`): `my page.md` is
 * `…/docs/my%20page/`, `q&a.md` `…/docs/q&a/` (the characters that would change the URL's meaning, `?`,
 * `#`, `%`, `\`, are refused in page names by the content scan).
 */
export function pageUrl(siteUrl: string, base: string, route: string): string {
  return siteUrl.replace(/\/$/, '') + encodeURI(withBase(base, route));
}
