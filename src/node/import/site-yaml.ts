import type { Tool } from './load-config';
import type { ImportReport } from './report';
import { convertSidebar, sidebarRoute, type SidebarGroupOut } from './sidebar';
import { DEFAULT_EMBED_DOMAINS } from '../scan/embeds';

/**
 * The old configuration as `_site.yaml`: title, description, base, language, the sidebar groups, the
 * header links, edit links and last-updated dates, the redirects found in pages, and every scalar of
 * `themeConfig` as a constant (`themeConfig.limits.payload` → `LIMITS_PAYLOAD`), so that template text
 * such as `{{ $themeConfig.limits.payload }}` has a value to become.
 */

export interface SiteYaml {
  title: string;
  description?: string;
  base?: string;
  lang?: string;
  nav?: { text: string; link: string }[];
  sidebar?: SidebarGroupOut[];
  editLink?: { pattern: string };
  lastUpdated?: boolean;
  /** `markdown.lineNumbers` of the old config: every code block numbered unless its fence says otherwise. */
  lineNumbers?: boolean;
  embeds: string[];
  redirects?: Record<string, string>;
  /** Reference pages from the OpenAPI documents of the old public folder (openapi-documents.ts). */
  apiReference?: { spec: string; route: string }[];
  constants: Record<string, string>;
}

/** `apiBaseUrl` and `limits.http-payload` → `API_BASE_URL`, `LIMITS_HTTP_PAYLOAD`. */
export function constantName(optionPath: string): string {
  return optionPath
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toUpperCase();
}

/** Every string, number and boolean under themeConfig (arrays excepted: lists are navigation, not values). */
export function themeConstants(themeConfig: unknown, at = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (!themeConfig || typeof themeConfig !== 'object' || Array.isArray(themeConfig)) return found;
  for (const [key, value] of Object.entries(themeConfig as Record<string, unknown>)) {
    const option = at ? `${at}.${key}` : key;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      found.set(option, String(value));
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, v] of themeConstants(value, option)) found.set(inner, v);
    }
  }
  return found;
}

/**
 * The constants of the imported site (`SITE_TITLE`, `SITE_DESCRIPTION` and every scalar of themeConfig)
 * and, for template text, which themeConfig option each one came from.
 */
export function siteConstants(
  config: Record<string, unknown>,
  title: string,
): { constants: Record<string, string>; themeOptions: Map<string, string> } {
  const constants: Record<string, string> = { SITE_TITLE: title };
  const description = str(config['description']);
  if (description) constants['SITE_DESCRIPTION'] = description;
  const themeOptions = new Map<string, string>();
  for (const [option, value] of themeConstants(config['themeConfig'])) {
    const name = constantName(option);
    if (!name || name in constants) continue;
    constants[name] = value;
    themeOptions.set(option, name);
  }
  return { constants, themeOptions };
}

export interface SiteYamlInput {
  tool: Tool;
  config: Record<string, unknown>;
  configFile: string;
  /** Used when the config has no title. */
  fallbackTitle: string;
  routes: ReadonlySet<string>;
  redirects: Record<string, string>;
  report: ImportReport;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function siteYaml(input: SiteYamlInput): SiteYaml {
  const { config, report, configFile } = input;
  const theme = (config['themeConfig'] ?? {}) as Record<string, unknown>;
  const title = str(config['title']) ?? input.fallbackTitle;
  const out: SiteYaml = { title, embeds: [...DEFAULT_EMBED_DOMAINS], constants: {} };
  const description = str(config['description']);
  if (description) out.description = description;
  const base = str(config['base']);
  if (base && /^\/([^/]+\/)*$/.test(base)) out.base = base;
  const locales = config['locales'] as Record<string, { lang?: unknown }> | undefined;
  const lang = str(config['lang']) ?? str(locales?.['/']?.lang);
  if (lang) out.lang = lang;

  const nav = navLinks(theme['nav'], input);
  if (nav.length > 0) out.nav = nav;
  const sidebar = convertSidebar({
    sidebar: theme['sidebar'],
    routes: input.routes,
    siteTitle: title,
    configFile,
    report,
  });
  if (sidebar.length > 0) out.sidebar = sidebar;
  else if (theme['sidebar'] !== undefined)
    report.lost(configFile, 0, 'the sidebar has no page entries: the build lists the folders instead');

  const editLink = editPattern(input.tool, theme);
  if (editLink) out.editLink = { pattern: editLink };
  if (theme['lastUpdated'] || config['lastUpdated']) out.lastUpdated = true;
  // A fence's own `:line-numbers` or `:no-line-numbers` is carried over as written: the build reads it.
  if ((config['markdown'] as { lineNumbers?: unknown } | undefined)?.lineNumbers === true) out.lineNumbers = true;
  if (Object.keys(input.redirects).length > 0) out.redirects = input.redirects;

  out.constants = siteConstants(config, title).constants;
  report.lost(
    configFile,
    0,
    'pages carry no canonical link until `siteUrl:` in `_site.yaml` gives the published address',
  );
  return out;
}

/** Header links, dropdown menus flattened into their entries. */
function navLinks(nav: unknown, input: SiteYamlInput): { text: string; link: string }[] {
  if (!Array.isArray(nav)) return [];
  const links: { text: string; link: string }[] = [];
  for (const entry of nav as Record<string, unknown>[]) {
    const text = str(entry?.['text']);
    const link = str(entry?.['link']);
    const items = entry?.['items'];
    if (Array.isArray(items)) {
      input.report.changed(input.configFile, 0, `header menu "${text ?? ''}" became its ${items.length} links`);
      links.push(...navLinks(items, input));
    } else if (text && link) {
      if (/^https?:\/\//i.test(link)) links.push({ text, link });
      else {
        const route = sidebarRoute(link, '/');
        if (route && input.routes.has(route)) links.push({ text, link: route });
        else input.report.lost(input.configFile, 0, `header link "${text}" (${link}) has no page and was left out`);
      }
    }
  }
  return links;
}

/** VuePress: `editLinks` with `docsRepo`/`repo`, `docsDir`, `docsBranch`; VitePress: `editLink.pattern`. */
function editPattern(tool: Tool, theme: Record<string, unknown>): string | undefined {
  if (tool === 'VitePress') {
    const pattern = str((theme['editLink'] as Record<string, unknown> | undefined)?.['pattern']);
    return pattern?.includes(':path') ? pattern : undefined;
  }
  if (!theme['editLinks']) return undefined;
  const repo = str(theme['docsRepo']) ?? str(theme['repo']);
  if (!repo) return undefined;
  const repoUrl = /^https?:\/\//.test(repo) ? repo.replace(/\/$/, '') : `https://github.com/${repo}`;
  const branch = str(theme['docsBranch']) ?? 'master';
  const dir = (str(theme['docsDir']) ?? '').replace(/^\/+|\/+$/g, '');
  return `${repoUrl}/edit/${branch}/${dir ? `${dir}/` : ''}:path`;
}
