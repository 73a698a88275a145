import path from 'node:path/posix';
import { canonicalRoute } from '../../shared/paths';
import type { ImportReport } from './report';

/**
 * The old site's sidebar as groups of routes, in the writers' order. VuePress 1 writes a sidebar as an
 * array of groups (`{ title, path, children }`), page paths and `[path, text]` pairs, or as an object of
 * such arrays keyed by the folder they apply to; VitePress as `{ text, link, items }`, in an array or an
 * object of the same kind. Nested groups are flattened into their group: this site's groups hold pages.
 * An entry that is not a page of the imported tree (an external link, a missing file) is reported.
 */

export interface SidebarGroupOut {
  text: string;
  items: string[];
}

export interface SidebarInput {
  sidebar: unknown;
  /** Routes of the imported pages: entries that are none are left out. */
  routes: ReadonlySet<string>;
  /** Group name for entries outside any group. */
  siteTitle: string;
  configFile: string;
  report: ImportReport;
}

type Entry = Record<string, unknown>;

export function convertSidebar(input: SidebarInput): SidebarGroupOut[] {
  const { sidebar } = input;
  const groups: SidebarGroupOut[] = [];
  if (Array.isArray(sidebar)) groups.push(...convertList(sidebar, '/', input.siteTitle, input));
  else if (sidebar && typeof sidebar === 'object') {
    for (const [prefix, list] of Object.entries(sidebar as Entry)) {
      const entries = Array.isArray(list) ? list : list && typeof list === 'object' ? (list as Entry)['items'] : [];
      if (!Array.isArray(entries)) continue;
      const loose = prefix === '/' ? input.siteTitle : titleOf(prefix);
      groups.push(...convertList(entries, canonicalRoute(prefix), loose, input));
    }
  }
  // One group per name: the same section listed under two sidebar keys reads as one.
  const merged = new Map<string, SidebarGroupOut>();
  for (const group of groups) {
    const same = merged.get(group.text);
    if (same) same.items.push(...group.items.filter((item) => !same.items.includes(item)));
    else merged.set(group.text, group);
  }
  return [...merged.values()].filter((group) => group.items.length > 0);
}

function titleOf(prefix: string): string {
  const last = prefix.split('/').filter(Boolean).pop() ?? '';
  const words = last.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One array of a sidebar: groups become groups, loose pages gather in a group named `loose`. */
function convertList(list: unknown[], base: string, loose: string, input: SidebarInput): SidebarGroupOut[] {
  const groups: SidebarGroupOut[] = [];
  let current: SidebarGroupOut | undefined;
  for (const entry of list) {
    const group = asGroup(entry);
    if (group) {
      const items: string[] = [];
      if (group.link !== undefined) pushRoute(items, group.link, base, input);
      for (const child of group.children) collectPages(child, base, items, input);
      groups.push({ text: group.text, items });
      current = undefined;
      continue;
    }
    if (!current) {
      current = { text: loose, items: [] };
      groups.push(current);
    }
    collectPages(entry, base, current.items, input);
  }
  return groups;
}

/** A group entry: a title with children (VuePress `title`/`children`, VitePress `text`/`items`). */
function asGroup(entry: unknown): { text: string; link?: string; children: unknown[] } | undefined {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const e = entry as Entry;
  const children = e['children'] ?? e['items'];
  if (!Array.isArray(children)) return undefined;
  const text = String(e['title'] ?? e['text'] ?? '');
  const link = e['path'] ?? e['link'];
  return { text, ...(typeof link === 'string' ? { link } : {}), children };
}

/** Every page an entry names, nested groups included, in order. */
function collectPages(entry: unknown, base: string, into: string[], input: SidebarInput): void {
  if (typeof entry === 'string') return pushRoute(into, entry, base, input);
  if (Array.isArray(entry)) {
    if (typeof entry[0] === 'string') pushRoute(into, entry[0], base, input);
    return;
  }
  const group = asGroup(entry);
  if (group) {
    if (group.link !== undefined) pushRoute(into, group.link, base, input);
    for (const child of group.children) collectPages(child, base, into, input);
    return;
  }
  if (entry && typeof entry === 'object') {
    const link = (entry as Entry)['link'] ?? (entry as Entry)['path'];
    if (typeof link === 'string') pushRoute(into, link, base, input);
  }
}

function pushRoute(into: string[], link: string, base: string, input: SidebarInput): void {
  const route = sidebarRoute(link, base);
  if (route === undefined) {
    input.report.lost(input.configFile, 0, `sidebar entry "${link}" is not a page of this site and was left out`);
    return;
  }
  if (!input.routes.has(route)) {
    input.report.lost(input.configFile, 0, `sidebar entry "${link}" has no page (${route}) and was left out`);
    return;
  }
  if (!into.includes(route)) into.push(route);
}

/** The route of a sidebar link written against `base`; undefined for a link off the site. */
export function sidebarRoute(link: string, base: string): string | undefined {
  const target = link.trim().split('#')[0] ?? '';
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return undefined;
  const absolute = target.startsWith('/') ? target : path.join(base, target);
  return canonicalRoute(absolute === '' ? '/' : absolute);
}
