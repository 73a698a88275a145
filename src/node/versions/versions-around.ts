import { routeFromRelativePath } from '../../shared/paths';
import { DiagnosticList } from '../diagnostics';
import { scanContent } from '../scan/scan';
import type { SiteConfig } from '../scan/site-config';
import type { OtherVersion, VersionsAround } from '../site/version-links';
import type { BuiltVersion } from './version-entries';

/**
 * For each version built with the site, the current one included, the others and their pages' routes:
 * what a version's link check names a link into another version by. The pages are those of each
 * version's folder (a scan, no page read); a page a build makes from another file is not among them.
 */
export async function versionsAround(
  contentDir: string,
  config: SiteConfig,
  versions: readonly BuiltVersion[],
): Promise<(route: string) => VersionsAround> {
  const currentText = config.versions.find((version) => version.current)?.text ?? 'the current version';
  const sites = [{ text: currentText, route: '/', contentDir }, ...versions];
  const all: OtherVersion[] = await Promise.all(
    sites.map(async ({ text, route, contentDir: folder }) => {
      // The pages' own problems are each version's build's to report, once.
      const files = await scanContent(folder, new DiagnosticList());
      return { text, route, pages: new Set(files.map((file) => routeFromRelativePath(file.relativePath))) };
    }),
  );
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
