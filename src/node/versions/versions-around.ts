import { routeFromRelativePath } from '../../shared/paths';
import { isPageFile } from '../scan/scan';
import type { SiteConfig } from '../scan/site-config';
import type { OtherVersion, VersionsAround } from '../site/version-links';
import type { FolderFile } from './version-mark';

/** A version as the others are told of it: its text, its route under the site's base, its folder's files. */
export interface VersionFolder {
  text: string;
  route: string;
  files: readonly FolderFile[];
}

/**
 * For each version built with the site, the current one (at `/`) included, the others and their pages'
 * routes: what a version's link check names a link into another version by. The pages are those of each
 * version's folder, from its files' names; a page a build makes from another file is not among them.
 */
export function versionsAround(config: SiteConfig, sites: readonly VersionFolder[]): (route: string) => VersionsAround {
  const currentText = sites.find((site) => site.route === '/')?.text ?? 'the current version';
  const all: OtherVersion[] = sites.map(({ text, route, files }) => {
    const pages = files.filter((file) => isPageFile(file.relative));
    return { text, route, pages: new Set(pages.map((file) => routeFromRelativePath(file.relative))) };
  });
  return (route) => ({
    text: all.find((version) => version.route === route)?.text ?? currentText,
    route,
    siteUrl: config.siteUrl,
    siteBase: config.base,
    others: all.filter((version) => version.route !== route),
  });
}

/** What a version is told of the others, as text: a part of what its outputs are made from. */
export const aroundKey = (around: VersionsAround): string =>
  JSON.stringify(around, (_key, value: unknown) => (value instanceof Set ? [...(value as Set<string>)].sort() : value));
