import { withBase } from '../../shared/paths';
import type { SiteConfig } from '../scan/site-config';
import type { BuiltVersion } from './version-entries';

/**
 * The current site's settings with each built version's menu link made its base (`/docs/v1/`), so that
 * every site of the build shows the same menu, whatever its own base.
 */
export function withVersionLinks(current: SiteConfig): SiteConfig {
  const versions = current.versions.map((version) => {
    if (version.link !== undefined) return version;
    if (version.current) return { ...version, link: current.base };
    return version.route === undefined ? version : { ...version, link: withBase(current.base, version.route) };
  });
  return { ...current, versions };
}

/**
 * The settings a version is built with: its own `_site.yaml` gives its pages' sidebar, redirects,
 * constants, edit links and the like; the current site gives what a reader sees of the site around every
 * version (title, address, language, the version menu, analytics, feedback, the announcement). A version's
 * own `base` is ignored: it is served at its route under the current site's.
 */
export function versionConfig(own: SiteConfig, current: SiteConfig, version: BuiltVersion): SiteConfig {
  const config: SiteConfig = {
    ...own,
    title: current.title,
    description: current.description,
    siteUrl: current.siteUrl,
    lang: current.lang,
    base: withBase(current.base, version.route),
    versions: withVersionLinks(current).versions,
  };
  // Present or absent as the current site has them, never the version's own.
  delete config.analyticsId;
  delete config.feedback;
  delete config.announcement;
  const { analyticsId, feedback, announcement } = current;
  return {
    ...config,
    ...(analyticsId && { analyticsId }),
    ...(feedback && { feedback }),
    ...(announcement && { announcement }),
  };
}
