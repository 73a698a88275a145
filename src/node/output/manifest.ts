import { withBase } from '../../shared/paths';
import type { SiteSettings, VersionLink } from '../../shared/types';
import { editLinkOf } from '../scan/page-history';
import { mathAssets } from './math-assets';
import { toPageMeta, type PageRecord } from '../analyze/page-record';
import { contentHash } from '../content-hash';
import type { SiteConfig } from '../scan/site-config';
import { announcementHtml } from '../site/announcement';
import type { Site } from '../site/assemble';
import type { UnhashedManifest } from './browser-data';

/** The site-wide settings that ship in the manifest. */
export function siteSettings(config: SiteConfig): SiteSettings {
  return {
    title: config.title,
    description: config.description,
    base: config.base,
    siteUrl: config.siteUrl,
    lang: config.lang,
    versions: config.versions.map((version) => versionLink(version, config.base)),
    ...(config.analyticsId ? { analyticsId: config.analyticsId } : {}),
    embeds: config.embeds,
    ...(config.nav.length > 0 ? { nav: config.nav } : {}),
    ...(config.feedback && { feedback: { endpoint: config.feedback.endpoint } }),
    ...(config.announcement && {
      announcement: {
        id: config.announcement.id,
        html: announcementHtml(config.announcement.text),
        ...(config.announcement.link && {
          link: config.announcement.link.startsWith('/')
            ? withBase(config.base, config.announcement.link)
            : config.announcement.link,
        }),
      },
    }),
  };
}

/**
 * A version menu entry as the app shows it. A built version's link is its base: the versions layer gives
 * every site of a build the links from the current site's base (src/node/versions/); without it (one site
 * alone) they are made from this site's base.
 */
function versionLink(version: SiteConfig['versions'][number], base: string): VersionLink {
  const built = version.current === true || version.content !== undefined || version.git !== undefined;
  const link = version.link ?? (version.route ? withBase(base, version.route) : base);
  return {
    text: version.text,
    link,
    ...(version.badge !== undefined && { badge: version.badge }),
    ...(version.current && { current: true }),
    ...(built && { built: true as const }),
    ...(version.listed && { listed: true as const }),
  };
}

/** Where the app's bundles are, as the manifest names them. */
export interface ManifestAssets {
  /** The search worker's file name under `assets/js/`. */
  worker: string;
}

/** The manifest of an assembled site, before its hash (browser-data.ts names it, with its data files). */
export function createManifest(
  config: SiteConfig,
  assembled: Site<PageRecord>,
  /** The search data's entry file (site/search-files.ts); it names the shards by their hashes. */
  searchEntry: string,
  client: ManifestAssets,
  /** Each file's last commit date, when the site shows it (scan/page-history.ts). */
  lastUpdated: ReadonlyMap<string, string> = new Map(),
): UnhashedManifest {
  const base = config.base;
  return {
    site: siteSettings(config),
    sidebar: assembled.sidebar,
    redirects: assembled.redirects,
    search: `${base}assets/js/search.${contentHash(searchEntry)}.json`,
    searchWorker: `${base}assets/js/${client.worker}`,
    pages: assembled.pages.map((page) => {
      const meta = toPageMeta(page, base);
      const date = lastUpdated.get(meta.relativePath);
      return {
        ...meta,
        ...(date ? { lastUpdated: date } : {}),
        ...(config.editLink ? { editLink: editLinkOf(config.editLink.pattern, meta.relativePath) } : {}),
        // A page with math needs KaTeX's stylesheet (and its fonts): only such a page loads it.
        ...(page.mathClasses.length > 0 ? { stylesheets: [`${base}assets/${mathAssets().stylesheet}`] } : {}),
      };
    }),
  };
}
