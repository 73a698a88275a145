import { canonicalRoute } from '../../shared/paths';
import type { SidebarGroup } from '../../shared/types';
import { closest, closestRoute } from '../analyze/markdown/suggest';
import type { SiteConfig } from '../scan/site-config';
import { SITE_CONFIG_FILE } from '../scan/site-config';
import type { PageSource } from '../analyze/page-record';
import type { TextStore } from '../analyze/text-store';
import type { DiagnosticList } from '../diagnostics';
import { contentHash } from '../content-hash';
import type { LinkReference } from '../analyze/markdown/analyze';
import { escapeHtml } from '../analyze/markdown/escape';

export interface AssembledSite {
  pages: PageSource[];
  byRoute: Map<string, PageSource>;
  sidebar: SidebarGroup[];
  redirects: Record<string, string>;
}

/**
 * Puts the pages together as a site and checks what only the whole site can tell: two files on one
 * route, links and anchors that lead nowhere, sidebar entries and redirects without a page.
 */
export function assembleSite(
  loaded: PageSource[],
  config: SiteConfig,
  configText: string,
  strict: boolean,
  diagnostics: DiagnosticList,
  /** Where a fragment the site changes goes. */
  texts: TextStore,
): AssembledSite {
  const byRoute = new Map<string, PageSource>();
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
  // What the site changes in a page's record: its key, links retargeted to renamed headings. Records are
  // never changed; each page with changes gets a new record at the end.
  const keys = uniqueKeys([...byRoute.values()]);
  const retargeted = new Map<PageSource, [from: string, to: string][]>();

  for (const page of byRoute.values()) {
    for (const link of page.analysis.links) {
      const target = byRoute.get(link.route);
      const where = [page.file.relativePath, link.line, link.column] as const;
      if (!target) {
        diagnostics.problem(
          strict,
          ...where,
          `broken link "${link.written}": no page at ${link.route}${closestRoute(link.route, routes, { written: link.written, file: page.file.relativePath })}`,
        );
      } else if (link.hash && !target.analysis.anchors.includes(link.hash)) {
        const renamed = target.analysis.aliases[link.hash];
        if (renamed !== undefined) {
          const sameFile = link.route === page.route && !link.written.split('#')[0];
          const replacements = retargeted.get(page) ?? [];
          replacements.push(retarget(sameFile, config.base, link, renamed));
          retargeted.set(page, replacements);
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
  for (const [route, page] of byRoute) {
    const key = keys.get(page);
    const replacements = retargeted.get(page);
    if (key === undefined && !replacements) continue;
    if (!replacements) {
      byRoute.set(route, { ...page, key: key ?? page.key });
      continue;
    }
    let html = page.html.read();
    for (const [from, to] of replacements) html = html.split(from).join(to);
    byRoute.set(route, { ...page, key: key ?? page.key, html: texts.put(html), hash: contentHash(html) });
  }
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
  return { pages, byRoute, sidebar, redirects };
}

/**
 * A link written for a heading id of an older site (see heading-aliases.ts) now points at the heading's own
 * id: the page's HTML changes where the renderer printed the link, from the first to the second.
 */
function retarget(sameFile: boolean, base: string, link: LinkReference, id: string): [from: string, to: string] {
  const prefix = sameFile ? '' : base.replace(/\/$/, '') + encodeURI(link.route);
  return [
    `href="${escapeHtml(`${prefix}#${encodeURIComponent(link.hash)}`)}"`,
    `href="${escapeHtml(`${prefix}#${encodeURIComponent(id)}`)}"`,
  ];
}

/** A redirect target's canonical route and the `#hash` it keeps (`/x#y` → `/x/`, `#y`). */
function canonicalTarget(target: string): { route: string; hash: string } {
  const at = target.indexOf('#');
  return at < 0
    ? { route: canonicalRoute(target), hash: '' }
    : { route: canonicalRoute(target.slice(0, at)), hash: target.slice(at) };
}

/** Frontmatter `prev`/`next` routes must be pages, as links must. */
function checkNeighbours(byRoute: ReadonlyMap<string, PageSource>, strict: boolean, diagnostics: DiagnosticList): void {
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
function sidebarFromTree(pages: PageSource[], siteTitle: string): SidebarGroup[] {
  const groups = new Map<string, SidebarGroup>();
  const sorted = [...pages].sort((a, b) => a.route.localeCompare(b.route));
  for (const page of sorted) {
    const segments = page.route.split('/').filter(Boolean);
    const folder = segments.length <= 1 && !page.file.relativePath.includes('/') ? '' : (segments[0] ?? '');
    let group = groups.get(folder);
    if (!group) {
      const indexPage = pages.find((p) => p.route === `/${folder}/`);
      group = { text: folder === '' ? siteTitle : (indexPage?.title ?? folder), items: [] };
      groups.set(folder, group);
    }
    group.items.push({ text: page.title, link: page.route });
  }
  return [...groups.values()];
}

/**
 * Keys come from routes; two routes that flatten to one key (`/a-b/`, `/a/b/`) get a route-hash suffix.
 * The pages whose key changes, with their new key.
 */
function uniqueKeys(pages: readonly PageSource[]): Map<PageSource, string> {
  const seen = new Map<string, number>();
  for (const page of pages) seen.set(page.key, (seen.get(page.key) ?? 0) + 1);
  const keys = new Map<PageSource, string>();
  for (const page of pages) {
    if ((seen.get(page.key) ?? 0) > 1) {
      let hash = 0;
      for (const ch of page.route) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
      keys.set(page, `${page.key}-${hash.toString(36)}`);
    }
  }
  return keys;
}
