/**
 * The versions of a site built together (src/node/versions/): each is a site of its own at its base
 * (`/docs/`, `/docs/v1/`), and these say which one a reader is in and where the others are.
 */
import type { SiteSettings, VersionLink } from './types';

/** The version whose pages these are: the built one at this site's base, else the current one. */
export function shownVersion(site: Pick<SiteSettings, 'base' | 'versions'>): VersionLink | undefined {
  return site.versions.find((v) => v.built && v.link === site.base) ?? site.versions.find((v) => v.current);
}

/** The newest version, when it is built with this site (its link is then its base). */
export function currentVersion(site: Pick<SiteSettings, 'versions'>): VersionLink | undefined {
  return site.versions.find((v) => v.current && v.built);
}

/**
 * Whether these pages are an older version built with the current one: such a page says so above itself,
 * and unless its version is `listed`, search engines, sitemap.xml and llms.txt leave it out.
 */
export function isOlderVersion(site: Pick<SiteSettings, 'base' | 'versions'>): boolean {
  const shown = shownVersion(site);
  return shown?.built === true && !shown.current;
}

/** Whether these pages are an older version that search engines are asked to leave out. */
export const isUnlistedVersion = (site: Pick<SiteSettings, 'base' | 'versions'>): boolean =>
  isOlderVersion(site) && !shownVersion(site)?.listed;
