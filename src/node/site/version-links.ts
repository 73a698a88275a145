import type { LinkReference } from '../analyze/markdown/analyze';

/** Another version of the site, built with this one as a site of its own. */
export interface OtherVersion {
  /** What the version menu calls it. */
  text: string;
  /** Its route under the site's base: `/` for the current version, `/v1/` for one served at `/docs/v1/`. */
  route: string;
  /** Its pages' routes, under its own route. */
  pages: ReadonlySet<string>;
}

/** The versions around the one being built: a link that leads into one of them is named as such. */
export interface VersionsAround {
  /** This version's text and route under the site's base. */
  text: string;
  route: string;
  /** The site's address and base (`https://docs.example.com`, `/docs/`): what a link out of a version names. */
  siteUrl: string;
  siteBase: string;
  others: readonly OtherVersion[];
}

const withoutSlash = (path: string) => path.replace(/\/$/, '');

/**
 * What to say of a link to no page of this version that leads into another version's pages; undefined
 * when no version has that page. Each version is a site of its own, whose app knows only its own pages: a
 * link meant to leave the version is written as the page's full address, which the build leaves as it is.
 */
export function crossVersionLink(link: LinkReference, around: VersionsAround): string | undefined {
  const hash = link.hash ? `#${encodeURIComponent(link.hash)}` : '';
  const address = (other: OtherVersion, route: string) =>
    `${withoutSlash(around.siteUrl)}${withoutSlash(around.siteBase)}${withoutSlash(other.route)}${encodeURI(route)}${hash}`;
  // Written with another version's route (`/v1/guide/` in v2): its page, where this version has none.
  const underSite = `${withoutSlash(around.route)}${link.route}`;
  const byDepth = [...around.others].sort((a, b) => b.route.length - a.route.length);
  for (const other of byDepth) {
    if (!underSite.startsWith(other.route)) continue;
    const inner = `/${underSite.slice(other.route.length)}`;
    if (!other.pages.has(inner)) continue;
    return (
      `cross-version link "${link.written}": ${inner} is a page of ${other.text}, which ${around.text}'s links ` +
      `do not reach by route; write its full address instead (${address(other, inner)})`
    );
  }
  // The same route as a page another version has (`/new/` in v1, where only v2 has /new/).
  const other = around.others.find((version) => version.pages.has(link.route));
  if (!other) return undefined;
  return (
    `cross-version link "${link.written}": ${link.route} is a page of ${other.text}, not of ${around.text}; ` +
    `link a page of ${around.text}, or write ${other.text}'s full address (${address(other, link.route)})`
  );
}
