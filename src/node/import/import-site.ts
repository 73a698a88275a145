import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { routeFromRelativePath } from '../../shared/paths';
import { DEFAULT_EMBED_DOMAINS } from '../scan/embeds';
import { resolveLink } from '../analyze/markdown/links';
import { readComponents } from './components';
import { strictBuildErrors } from './check-tree';
import { copyPublic, listFiles } from './copy-files';
import { namedOpenApiDocuments, openApiDocuments, referenceRoutes } from './openapi-documents';
import { ConfigRunError, findConfig, loadConfig, type Tool } from './load-config';
import { ImportReport } from './report';
import { rewritePage } from './rewrite-page';
import { siteConstants, siteYaml } from './site-yaml';

/**
 * `npm run import`: an old VuePress 1 or VitePress docs folder → a content folder this site builds, plus
 * `_import-report.md`. The source is only read. Problems with the input itself (no such folder, no
 * configuration, a configuration that does not run, an output folder in use) are `ImportError`s with a
 * message for the writer; what a page or an option loses is reported, never fatal.
 */

export class ImportError extends Error {}

export interface ImportOptions {
  source: string;
  out: string;
  /** Write into a folder that is not empty. */
  force?: boolean;
  /** How long the old site's config may run (load-config.ts has the default). */
  configTimeLimitMs?: number;
}

export interface ImportResult {
  tool: Tool;
  pages: number;
  redirects: number;
  report: ImportReport;
  reportFile: string;
}

export const REPORT_FILE = '_import-report.md';

export async function importSite(options: ImportOptions): Promise<ImportResult> {
  const source = path.resolve(options.source);
  const out = path.resolve(options.out);
  await checkFolders(source, out, options.force ?? false);
  const found = findConfig(source);
  if (!found) {
    throw new ImportError(
      `"${options.source}" has no .vuepress/config.js or .vitepress/config.{js,mjs,ts}: it is not a VuePress or VitePress docs folder`,
    );
  }
  const configFile = path.relative(source, found.file).split(path.sep).join('/');
  let loaded;
  try {
    loaded = await loadConfig(found.file, options.configTimeLimitMs);
  } catch (error) {
    if (!(error instanceof ConfigRunError)) throw error;
    throw new ImportError(`${path.join(options.source, configFile)} could not be run: ${error.message.split('\n')[0]}`);
  }
  const { config } = loaded;
  const report = new ImportReport();
  for (const { option, module } of loaded.unreadable) {
    report.lost(
      configFile,
      0,
      `option "${option}" could not be read: it needs the package "${module}", which is not installed here`,
    );
  }

  reportPlugins(config['plugins'], loaded.unreadable, configFile, report);

  const srcDir = typeof config['srcDir'] === 'string' ? path.resolve(source, config['srcDir']) : source;
  const publicDir = found.tool === 'VuePress' ? path.join(source, '.vuepress/public') : path.join(srcDir, 'public');
  const title = typeof config['title'] === 'string' && config['title'] ? config['title'] : path.basename(source);
  const { constants, themeOptions } = siteConstants(config, title);
  const components = new Map([
    ...readComponents(source, path.join(source, '.vitepress/theme/components')),
    ...readComponents(source, path.join(source, '.vuepress/components')),
  ]);
  const ctx = {
    themeOptions,
    constants: new Map(Object.entries(constants)),
    components,
    report,
    embeds: DEFAULT_EMBED_DOMAINS,
    sourceName: path.basename(source),
  };

  const routes = new Set<string>();
  const redirects: Record<string, string> = {};
  await mkdir(out, { recursive: true });
  for (const file of await listFiles(srcDir, publicDir)) {
    const relative = path.relative(srcDir, file).split(path.sep).join('/');
    const target = path.join(out, relative);
    await mkdir(path.dirname(target), { recursive: true });
    if (!/\.md$/i.test(file)) {
      await copyFile(file, target);
      continue;
    }
    const reported = path.relative(source, file).split(path.sep).join('/');
    const page = rewritePage(await readFile(file, 'utf8'), reported, ctx);
    const route = routeFromRelativePath(relative);
    if (page.kind === 'page') {
      await writeFile(target, page.text);
      routes.add(route);
      continue;
    }
    const resolved = resolveLink(page.target, route, relative);
    if (resolved.kind === 'internal' || resolved.kind === 'anchor') {
      const to =
        (resolved.kind === 'internal' ? resolved.route : route) +
        (resolved.hash ? `#${encodeURIComponent(resolved.hash)}` : '');
      redirects[route] = to;
      report.changed(
        reported,
        0,
        `the page only redirected to "${page.target}": it is now a redirect from ${route} to ${to}`,
      );
    } else {
      report.lost(reported, 0, `the page only redirected to "${page.target}", off this site: it was left out`);
    }
  }
  const copied = await copyPublic(publicDir, out, source, report);

  const site = siteYaml({ tool: found.tool, config, configFile, fallbackTitle: title, routes, redirects, report });
  const inPublic = await openApiDocuments(publicDir);
  const folders = { source, srcDir, publicDir, configDir: path.dirname(found.file) };
  const named = (await namedOpenApiDocuments(config, folders, out)).filter((spec) => !inPublic.includes(spec));
  const documents = [...inPublic, ...named];
  const references = referenceRoutes(documents, routes);
  if (documents.length > 0) site.apiReference = documents.map((spec, i) => ({ spec, route: references[i]! }));
  for (const [i, spec] of documents.entries()) {
    const where =
      i < inPublic.length ? path.relative(source, path.join(publicDir, spec)).split(path.sep).join('/') : configFile;
    const what = i < inPublic.length ? 'the OpenAPI document' : `the OpenAPI document the config names (${spec})`;
    report.changed(where, 0, `${what} became the API reference pages under ${references[i]}`);
  }
  const header = `# Imported from the ${found.tool} site in ${path.basename(source)} by \`npm run import\`; see ${REPORT_FILE}.\n`;
  // The constants, the longest part, last.
  const { constants: siteConstantsTable, ...settings } = site;
  const yaml = stringify({ ...settings, constants: siteConstantsTable }, { lineWidth: 0 });
  await writeFile(path.join(out, '_site.yaml'), header + yaml);
  if (copied > 0)
    report.changed(
      path.relative(source, publicDir).split(path.sep).join('/'),
      0,
      `${copied} public files were copied to the content folder's root, so links such as /logo.png keep working`,
    );
  for (const problem of await strictBuildErrors(out)) {
    report.broken(problem.file, problem.line, problem.column, problem.message);
  }
  const reportFile = path.join(out, REPORT_FILE);
  await writeFile(reportFile, report.render(options.source, found.tool, routes.size));
  return { tool: found.tool, pages: routes.size, redirects: Object.keys(redirects).length, report, reportFile };
}

async function checkFolders(source: string, out: string, force: boolean): Promise<void> {
  try {
    if (!(await stat(source)).isDirectory()) throw new ImportError(`the source "${source}" is not a folder`);
    await readdir(source);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(
      `cannot read the source folder "${source}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const inside = (a: string, b: string) => a === b || a.startsWith(b + path.sep);
  if (inside(out, source) || inside(source, out)) {
    throw new ImportError('the output folder must be outside the source folder (the source is never modified)');
  }
  const existing = await readdir(out).catch(() => [] as string[]);
  if (existing.length > 0 && !force) {
    throw new ImportError(
      `the output folder "${out}" is not empty: choose an empty folder, or add --force to write into it`,
    );
  }
}

/** Plugins add behaviour this site does not have: each is named (the missing packages already are). */
function reportPlugins(
  plugins: unknown,
  unreadable: readonly { option: string }[],
  configFile: string,
  report: ImportReport,
): void {
  const entries = Array.isArray(plugins)
    ? plugins.map((plugin: unknown, i) => [String(i), plugin] as const)
    : plugins && typeof plugins === 'object'
      ? Object.entries(plugins).map(([name]) => [name, name] as const)
      : [];
  for (const [at, plugin] of entries) {
    if (unreadable.some((u) => u.option === `plugins.${at}` || u.option.startsWith(`plugins.${at}.`))) continue;
    const name =
      typeof plugin === 'string'
        ? plugin
        : Array.isArray(plugin) && typeof plugin[0] === 'string'
          ? plugin[0]
          : `plugins[${at}]`;
    report.lost(
      configFile,
      0,
      `plugin "${name}" does not run on this site: what it added to pages is not carried over`,
    );
  }
}
