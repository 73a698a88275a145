import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isNode, parseDocument } from 'yaml';
import { digestOfAll, fileDigest, sourceDigest } from '../content-hash';
import type { ContentFile } from '../scan/scan';
import { SITE_CONFIG_FILE, type SiteConfig } from '../scan/site-config';
import { byPlace, positionAt, type Diagnostic, type DiagnosticList } from '../diagnostics';
import { isInside } from '../scan/scan';
import { loadApiDocument } from './load-document';
import { referencePages } from './reference-pages';
import type { UnmadeReference } from './unmade-references';

export interface ApiReferenceOptions {
  contentDir: string;
  /** The project's `src/`: the pages are made again when the code that makes them changed. */
  srcDir: string;
  /** The build's cache folder: the generated pages' markdown is kept in its `openapi/` for the page pass. */
  cacheDir: string;
  diagnostics: DiagnosticList;
}

/**
 * The scan's hook for `apiReference` of `_site.yaml`: each OpenAPI document it names becomes markdown
 * pages (reference-pages.ts), written to the cache folder's `openapi/` and added to the scanned files, so that they go
 * through the page pass, the site checks, search, llms.txt and prerendering like the writers' own pages.
 * A file is written only when its text changed: the render cache then reuses the page. The pages join
 * the sidebar: after the reference's overview where the sidebar lists it, else as a group of their own.
 */
export async function withApiReference(
  files: ContentFile[],
  config: SiteConfig,
  configText: string,
  options: ApiReferenceOptions,
): Promise<{ files: ContentFile[]; config: SiteConfig; sources: GeneratedSources; unmade: UnmadeReference[] }> {
  const { contentDir, diagnostics } = options;
  const generatedDir = path.join(options.cacheDir, 'openapi');
  if (config.apiReference.length === 0) {
    // The pages of a reference since removed from `_site.yaml`: nothing reads them any more.
    await rm(generatedDir, { recursive: true, force: true });
    return { files, config, sources: new Map(), unmade: [] };
  }
  // What the pages are made by: this module and the libraries it uses.
  const code = sourceDigest(options.srcDir, ['node/openapi', '../package-lock.json'], '');
  const previous = await readRecord(generatedDir);
  const record: Record<string, MadeFrom> = {};
  const generated: ContentFile[] = [];
  const sources = new Map<string, { spec: string; text: string }>();
  const unmade: UnmadeReference[] = [];
  let sidebar = config.sidebar;
  for (const [index, reference] of config.apiReference.entries()) {
    const spec = path.posix.normalize(reference.spec);
    const file = path.resolve(contentDir, spec);
    if (spec.startsWith('../') || !isRealFileInside(contentDir, file)) {
      const { line, column } = configPosition(configText, ['apiReference', index, 'spec']);
      const problem =
        spec.startsWith('../') || existsOutside(file) ? 'is outside the content folder' : 'does not exist';
      diagnostics.error(SITE_CONFIG_FILE, line, column, `OpenAPI document "${reference.spec}" ${problem}`);
      unmade.push({ route: reference.route, file: SITE_CONFIG_FILE, line, column });
      continue;
    }
    const key = `${spec} ${reference.route}`;
    // The document's own place too: a build of another content folder with the same cache (the default one
    // is the project's) must read its own document, not take pages made from the last folder's.
    const inputs = digestOfAll([code, JSON.stringify(config.constants), key, file]);
    let made = await unchanged(previous[key], inputs, generatedDir);
    if (!made) {
      const reported = diagnostics.items.length;
      const loaded = await loadApiDocument(contentDir, spec, config.constants, diagnostics);
      if (!loaded) {
        const { line, column } = diagnostics.items[reported] ?? { line: 1, column: 1 };
        unmade.push({ route: reference.route, file: spec, line, column });
        continue;
      }
      const pages = referencePages(loaded.api, reference.route);
      for (const page of pages) await writeIfChanged(path.join(generatedDir, page.relativePath), page.markdown);
      const read = await Promise.all(loaded.files.map(async (place) => ({ place, digest: await digestOf(place) })));
      made = {
        inputs,
        files: read,
        title: loaded.api.info.title,
        pages: pages.map(({ relativePath, route }) => ({ relativePath, route })),
      };
    }
    record[key] = made;
    const specText = await readFile(file, 'utf8');
    for (const page of made.pages) {
      const absolutePath = path.join(generatedDir, page.relativePath);
      generated.push({ absolutePath, relativePath: page.relativePath, madeFrom: spec });
      sources.set(page.relativePath, { spec, text: specText });
    }
    if (sidebar) sidebar = withPagesInSidebar(sidebar, made.pages, made.title);
  }
  await writeIfChanged(path.join(generatedDir, RECORD_FILE), JSON.stringify(record));
  const keep = new Set([path.join(generatedDir, RECORD_FILE), ...generated.map((file) => file.absolutePath)]);
  await removeOthers(generatedDir, keep);
  const site = sidebar ? { ...config, sidebar } : config;
  return { files: [...files, ...generated], config: site, sources, unmade };
}

/**
 * What one reference's pages were made from, kept beside them (`made-from.json`): validating a document
 * compiles the OpenAPI schemas, a second or more of a build, so a document whose files are unchanged,
 * with the same constants and the same code, keeps its pages without being read again.
 */
interface MadeFrom {
  /** The code, the constants, the document's path and route. */
  inputs: string;
  /** The document and the files its `$ref`s lead to, with the digest of each. */
  files: { place: string; digest: string }[];
  title: string;
  pages: { relativePath: string; route: string }[];
}

const RECORD_FILE = 'made-from.json';

async function readRecord(generatedDir: string): Promise<Record<string, MadeFrom>> {
  try {
    return JSON.parse(await readFile(path.join(generatedDir, RECORD_FILE), 'utf8')) as Record<string, MadeFrom>;
  } catch {
    return {};
  }
}

async function digestOf(file: string): Promise<string> {
  return fileDigest(await readFile(file).catch(() => new Uint8Array()));
}

/** The record, when its pages are still what the same inputs would make; else undefined. */
async function unchanged(
  made: MadeFrom | undefined,
  inputs: string,
  generatedDir: string,
): Promise<MadeFrom | undefined> {
  if (!made || made.inputs !== inputs) return undefined;
  for (const { place, digest } of made.files) if ((await digestOf(place)) !== digest) return undefined;
  for (const page of made.pages) {
    if (!(await stat(path.join(generatedDir, page.relativePath)).catch(() => undefined))) return undefined;
  }
  return made;
}

/** The OpenAPI document each generated page was made from, by the page's path, with the document's text. */
export type GeneratedSources = ReadonlyMap<string, { spec: string; text: string }>;

/**
 * The build's problems, sorted as `DiagnosticList.sorted()` sorts them, with those the page pass or the
 * site checks found in a generated page (a broken link in a description) moved to the OpenAPI document, at
 * the first line that holds what the message quotes: the writer is sent to a file that exists. The list
 * itself is left as it is: the render cache keeps each page's problems under the page's path.
 */
export function inSourceDocuments(list: DiagnosticList, sources: GeneratedSources): Diagnostic[] {
  const moved = list.items.map((problem) => {
    const source = sources.get(problem.file);
    if (!source) return problem;
    const quoted = /"([^"]+)"/.exec(problem.message)?.[1];
    const offset = quoted ? source.text.indexOf(quoted) : -1;
    const { line, column } = offset >= 0 ? positionAt(source.text, offset) : { line: 1, column: 1 };
    const message = `${problem.message} (in the reference page made from it, ${problem.file})`;
    return { ...problem, file: source.spec, line, column, message };
  });
  return moved.sort(byPlace);
}

function isRealFileInside(contentDir: string, file: string): boolean {
  try {
    return isInside(realpathSync(contentDir), realpathSync(file)) && statSync(file).isFile();
  } catch {
    return false;
  }
}

function existsOutside(file: string): boolean {
  try {
    realpathSync(file);
    return true;
  } catch {
    return false;
  }
}

function configPosition(configText: string, keys: (string | number)[]): { line: number; column: number } {
  const node = parseDocument(configText).getIn(keys, true);
  return isNode(node) && node.range ? positionAt(configText, node.range[0]) : { line: 1, column: 1 };
}

/** The reference's pages in the sidebar: those the writers did not list follow its overview, or form a group. */
function withPagesInSidebar(
  sidebar: NonNullable<SiteConfig['sidebar']>,
  pages: { route: string }[],
  title: string,
): NonNullable<SiteConfig['sidebar']> {
  const listed = new Set(sidebar.flatMap((group) => group.items));
  const missing = pages.map((page) => page.route).filter((route) => !listed.has(route));
  if (missing.length === 0) return sidebar;
  const overview = pages[0]!.route;
  const holder = sidebar.findIndex((group) => group.items.includes(overview));
  if (holder < 0) return [...sidebar, { text: title, items: missing }];
  return sidebar.map((group, index) => {
    if (index !== holder) return group;
    const at = group.items.indexOf(overview) + 1;
    return { ...group, items: [...group.items.slice(0, at), ...missing, ...group.items.slice(at)] };
  });
}

async function writeIfChanged(file: string, text: string): Promise<void> {
  const old = await readFile(file, 'utf8').catch(() => undefined);
  if (old === text) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** Pages of a reference that is gone, or of a tag that is: nothing else reads them, and they would pile up. */
async function removeOthers(dir: string, keep: Set<string>): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !keep.has(file)) await rm(file, { force: true });
  }
}
