import { canonicalRoute, keyFromRoute } from '../../shared/paths';
import type { SidebarGroup } from '../../shared/types';
import { closest, closestRoute } from '../analyze/markdown/suggest';
import type { SiteConfig } from '../scan/site-config';
import { SITE_CONFIG_FILE } from '../scan/site-config';
import type { CompletePage } from '../analyze/page-record';
import { compareNames, type DiagnosticList } from '../diagnostics';
import type { LinkReference } from '../analyze/markdown/analyze';
import { UncheckedLinks, type UnmadeReference } from '../openapi/unmade-references';
import { crossVersionLink, type VersionsAround } from './version-links';

/** What the site stage reads of a page: never its texts. */
export type SitePage = Pick<CompletePage, 'file' | 'route' | 'title' | 'analysis' | 'neighbours' | 'redirect'>;

/** The site's pages in order, its sidebar and its redirects. */
export interface Site<Page> {
  pages: Page[];
  sidebar: SidebarGroup[];
  redirects: Record<string, string>;
}

/**
 * A link of a page written for a heading id an older site gave (see heading-aliases.ts): the URL the
 * renderer printed for it, and the URL of the heading's own id, which `pageRecords` (page-records.ts) puts in its place.
 */
export interface LegacyLink {
  written: string;
  resolved: string;
}

/** The site as `pageRecords` takes it: what each page is called and where its links lead. */
export interface AssembledSite<Page> extends Site<Page> {
  /** Every page's key: from its route, with a route-hash suffix when two routes flatten to one key. */
  keys: Map<Page, string>;
  /** The page's links to legacy heading ids, for the pages that have any. */
  legacyLinks: Map<Page, LegacyLink[]>;
}

/**
 * Puts the pages together as a site and checks what only the whole site can tell: two files on one
 * route, links and anchors that lead nowhere, sidebar entries and redirects without a page.
 */
export function assembleSite<Page extends SitePage>(
  loaded: readonly Page[],
  config: SiteConfig,
  configText: string,
  strict: boolean,
  diagnostics: DiagnosticList,
  /** API references whose document has an error: links into them are not checked (unmade-references.ts). */
  unmade: readonly UnmadeReference[] = [],
  /** The other versions built with this one, whose pages a link may lead into (version-links.ts). */
  versions?: VersionsAround,
): AssembledSite<Page> {
  const unchecked = new UncheckedLinks(unmade);
  const byRoute = new Map<string, Page>();
  const redirectFiles = loaded.filter((page) => page.redirect);
  for (const page of loaded) {
    if (page.redirect) continue;
    const other = byRoute.get(page.route);
    if (other) {
      diagnostics.error(
        page.file.relativePath,
        1,
        1,
        `route ${page.route} is already claimed by ${other.file.relativePath}: rename or remove one of them`,
      );
      continue;
    }
    byRoute.set(page.route, page);
  }
  const routes = [...byRoute.keys()];
  const keys = uniqueKeys([...byRoute.values()]);
  const legacyLinks = new Map<Page, LegacyLink[]>();

  for (const page of byRoute.values()) {
    for (const link of page.analysis.links) {
      const target = byRoute.get(link.route);
      const where = [page.file.relativePath, link.line, link.column] as const;
      if (!target && unchecked.skips(link.route)) continue;
      if (!target) {
        diagnostics.problem(
          strict,
          ...where,
          (versions && crossVersionLink(link, versions)) ??
            `broken link "${link.written}": no page at ${link.route}${closestRoute(link.route, routes, { written: link.written, file: page.file.relativePath })}`,
        );
      } else if (link.hash && !target.analysis.anchors.includes(link.hash)) {
        const renamed = target.analysis.aliases[link.hash];
        if (renamed !== undefined) {
          const sameFile = link.route === page.route && !link.written.split('#')[0];
          const links = legacyLinks.get(page) ?? [];
          links.push(retarget(sameFile, config.base, link, renamed));
          legacyLinks.set(page, links);
          continue;
        }
        diagnostics.problem(
          strict,
          ...where,
          `broken anchor "${link.written}": ${target.route} has no heading #${link.hash}${closest(link.hash, target.analysis.anchors)}`,
        );
      }
    }
  }

  checkNeighbours(byRoute, strict, diagnostics);
  const pages = [...byRoute.values()];

  const configLine = (needle: string) => {
    const index = configText.indexOf(needle);
    return index < 0 ? 1 : configText.slice(0, index).split('\n').length;
  };

  const redirects: Record<string, string> = {};
  for (const file of redirectFiles) {
    const { target, line, column } = file.redirect ?? { target: '', line: 1, column: 1 };
    const targetRoute = canonicalTarget(target).route;
    if (!byRoute.has(targetRoute)) {
      diagnostics.problem(
        strict,
        file.file.relativePath,
        line,
        column,
        `redirect to ${target} leads to no page${closestRoute(targetRoute, routes)}`,
      );
    } else if (!byRoute.has(file.route)) redirects[file.route] = target;
  }
  for (const [from, to] of Object.entries(config.redirects)) {
    const source = canonicalRoute(from);
    const { route: target, hash } = canonicalTarget(to);
    if (!byRoute.has(target)) {
      diagnostics.problem(
        strict,
        SITE_CONFIG_FILE,
        configLine(from),
        1,
        `redirect ${from} leads to ${to}, which is not a page${closestRoute(target, routes)}`,
      );
      continue;
    }
    if (byRoute.has(source)) {
      diagnostics.problem(
        strict,
        SITE_CONFIG_FILE,
        configLine(from),
        1,
        `redirect ${from} would hide the page at ${source}`,
      );
      continue;
    }
    redirects[source] = target + hash;
  }

  let sidebar: SidebarGroup[];
  if (config.sidebar) {
    sidebar = config.sidebar.map((group) => ({
      text: group.text,
      items: group.items.flatMap((item) => {
        const page = byRoute.get(canonicalRoute(item));
        if (!page && unchecked.skips(canonicalRoute(item))) return [];
        if (!page) {
          diagnostics.problem(
            strict,
            SITE_CONFIG_FILE,
            configLine(item),
            1,
            `sidebar entry ${item} is not a page${closestRoute(item, routes)}`,
          );
          return [];
        }
        return [{ text: page.title, link: page.route }];
      }),
    }));
  } else {
    sidebar = sidebarFromTree(pages, config.title);
  }
  const announced = config.announcement?.link;
  if (announced?.startsWith('/') && !byRoute.has(canonicalRoute(announced))) {
    const line = configLine(announced);
    diagnostics.problem(
      strict,
      SITE_CONFIG_FILE,
      line,
      1,
      `announcement link ${announced} is not a page${closest(announced, routes)}`,
    );
  }
  unchecked.report(diagnostics);
  return { pages, sidebar, redirects, keys, legacyLinks };
}

/** A link written for a heading id of an older site (see heading-aliases.ts), to the heading's own id. */
function retarget(sameFile: boolean, base: string, link: LinkReference, id: string): LegacyLink {
  const prefix = sameFile ? '' : base.replace(/\/$/, '') + encodeURI(link.route);
  return {
    written: `${prefix}#${encodeURIComponent(link.hash)}`,
    resolved: `${prefix}#${encodeURIComponent(id)}`,
  };
}

/** A redirect target's canonical route and the `#hash` it keeps (`/x#y` → `/x/`, `#y`). */
function canonicalTarget(target: string): { route: string; hash: string } {
  const at = target.indexOf('#');
  return at < 0
    ? { route: canonicalRoute(target), hash: '' }
    : { route: canonicalRoute(target.slice(0, at)), hash: target.slice(at) };
}

/** Frontmatter `prev`/`next` routes must be pages, as links must. */
function checkNeighbours(byRoute: ReadonlyMap<string, SitePage>, strict: boolean, diagnostics: DiagnosticList): void {
  const routes = [...byRoute.keys()];
  for (const page of byRoute.values()) {
    for (const { key, written, route, line, column } of page.neighbours) {
      if (byRoute.has(route)) continue;
      const message = `broken ${key} link "${written}": no page at ${route}${closestRoute(route, routes)}`;
      diagnostics.problem(strict, page.file.relativePath, line, column, message);
    }
  }
}

/** Without a configured sidebar: one group for the top-level pages, then one per top-level folder. */
function sidebarFromTree(pages: readonly SitePage[], siteTitle: string): SidebarGroup[] {
  const groups = new Map<string, SidebarGroup>();
  // A folder's group is named by its index page: looked up by route, as a site has hundreds of folders.
  const byRoute = new Map<string, SitePage>();
  for (const page of pages) if (!byRoute.has(page.route)) byRoute.set(page.route, page);
  const sorted = [...pages].sort((a, b) => compareNames(a.route, b.route));
  for (const page of sorted) {
    const segments = page.route.split('/').filter(Boolean);
    const folder = segments.length <= 1 && !page.file.relativePath.includes('/') ? '' : (segments[0] ?? '');
    let group = groups.get(folder);
    if (!group) {
      const indexPage = byRoute.get(`/${folder}/`);
      group = { text: folder === '' ? siteTitle : (indexPage?.title ?? folder), items: [] };
      groups.set(folder, group);
    }
    group.items.push({ text: page.title, link: page.route });
  }
  return [...groups.values()];
}

/** Keys come from routes; two routes that flatten to one key (`/a-b/`, `/a/b/`) get a route-hash suffix. */
function uniqueKeys<Page extends SitePage>(pages: readonly Page[]): Map<Page, string> {
  const plain = new Map(pages.map((page) => [page, keyFromRoute(page.route)]));
  const seen = new Map<string, number>();
  for (const key of plain.values()) seen.set(key, (seen.get(key) ?? 0) + 1);
  const keys = new Map<Page, string>();
  for (const [page, key] of plain) {
    if ((seen.get(key) ?? 0) > 1) {
      let hash = 0;
      for (const ch of page.route) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
      keys.set(page, `${key}-${hash.toString(36)}`);
    } else keys.set(page, key);
  }
  return keys;
}
