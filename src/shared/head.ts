import { withBase } from './paths';
import { isUnlistedVersion } from './versions';
import type { PageMeta, SiteSettings } from './types';

export interface HeadData {
  title: string;
  description: string;
  lang: string;
  /** Absolute canonical URL; none for the not-found page, nor for a site without a public address. */
  canonical?: string;
  /** Search engines are asked to leave the page out: an older version's (src/shared/versions.ts). */
  noindex?: true;
}

/** Hosts that only ever mean the machine a browser runs on. */
const LOCAL_HOST = /^(localhost|.+\.localhost|127(\.\d+){3}|\[::1\]|0\.0\.0\.0)$/;

/**
 * A page's absolute URL for its canonical link, or undefined when the site has no public address:
 * `siteUrl` is http://localhost when `_site.yaml` sets none, and a canonical link there would tell search
 * engines that every page lives on the reader's own machine.
 */
export function canonicalUrl(site: SiteSettings, route: string): string | undefined {
  // The host of the URL (the config checked it is one): after the scheme and any user, before a port.
  const host = /^[a-z][a-z\d+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(site.siteUrl)?.[1]?.toLowerCase();
  if (host === undefined) return undefined;
  return LOCAL_HOST.test(host) ? undefined : site.siteUrl.replace(/\/$/, '') + withBase(site.base, route);
}

/** What the document head says for a page (or the not-found page); the prerender and the app share it. */
export function headFor(site: SiteSettings, page: PageMeta | undefined): HeadData {
  if (!page) {
    return { title: `Page not found | ${site.title}`, description: site.description, lang: site.lang };
  }
  const canonical = canonicalUrl(site, page.path);
  return {
    ...(isUnlistedVersion(site) && { noindex: true as const }),
    title: page.path === '/' ? `${page.title} | ${site.title}` : `${page.title} | ${site.title}`,
    description: page.description || site.description,
    lang: typeof page.frontmatter.lang === 'string' ? page.frontmatter.lang : site.lang,
    ...(canonical ? { canonical } : {}),
  };
}
