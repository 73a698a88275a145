import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { isInside } from '../scan/scan';
import { listFiles } from './copy-files';

/** Larger files are not read to look for an `openapi:` key: no API description comes near this. */
const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/**
 * The OpenAPI documents of the old site's public folder, by their path in it (which is their path in the
 * new content folder, where the public files are copied): the `.yaml`, `.yml` and `.json` files whose
 * top level has an `openapi` version. VuePress and VitePress served them as files for a reference
 * component or an outside viewer; here they become reference pages (`apiReference` of `_site.yaml`).
 */
export async function openApiDocuments(publicDir: string): Promise<string[]> {
  const files = await listFiles(publicDir, '').catch(() => [] as string[]);
  const found: string[] = [];
  for (const file of files) {
    if (await isOpenApiDocument(file)) found.push(path.relative(publicDir, file).split(path.sep).join('/'));
  }
  return found;
}

/** Whether a file is an OpenAPI 3 document: YAML or JSON whose top level has an `openapi` version. */
async function isOpenApiDocument(file: string): Promise<boolean> {
  if (!/\.(ya?ml|json)$/i.test(file)) return false;
  try {
    if ((await stat(file)).size > MAX_DOCUMENT_BYTES) return false;
    const version = (parse(await readFile(file, 'utf8')) as { openapi?: unknown } | null)?.openapi;
    return typeof version === 'string' && /^3\./.test(version);
  } catch {
    return false;
  }
}

/** How deep `configStrings` looks into the old config: plugin options nest a few levels, no more. */
const CONFIG_DEPTH = 8;

/** The string values of the old config, at any depth up to CONFIG_DEPTH. */
function configStrings(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (depth >= CONFIG_DEPTH || value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap((item) => configStrings(item, depth + 1));
}

export interface OldSiteFolders {
  /** The old docs folder. */
  source: string;
  /** Its pages' folder (VitePress's `srcDir`), whose files keep their paths in the new content folder. */
  srcDir: string;
  /** Its public folder, whose files go to the new content folder's root. */
  publicDir: string;
  /** The folder of its config file. */
  configDir: string;
}

/**
 * The OpenAPI documents the old config names (a reference plugin's or the theme's `spec: './api.yaml'`):
 * a path relative to the config's folder or the docs folder, or a URL path the public folder serves. Each
 * is returned by its path in the new content folder, copied there (from a folder the import does not copy,
 * such as `.vuepress/`, to the same path under the content folder's root) when it is not there yet. A document outside the docs folder is not read.
 */
export async function namedOpenApiDocuments(
  config: Record<string, unknown>,
  folders: OldSiteFolders,
  out: string,
): Promise<string[]> {
  const { source, srcDir, publicDir, configDir } = folders;
  const found: string[] = [];
  for (const text of new Set(configStrings(config))) {
    if (!/\.(ya?ml|json)$/i.test(text) || /^[a-z][a-z0-9+.-]*:/i.test(text)) continue;
    const candidates = text.startsWith('/')
      ? [path.join(publicDir, text)]
      : [path.resolve(configDir, text), path.resolve(source, text)];
    const file = (
      await Promise.all(
        candidates.map(async (c) => (isInside(source, c) && (await isOpenApiDocument(c)) ? c : undefined)),
      )
    ).find((c) => c !== undefined);
    if (!file) continue;
    // Where it is in the new folder: as the public folder serves it, as the config's folder holds it (that
    // folder's files are not pages), or as the pages' folder does.
    const home = [publicDir, configDir, srcDir].find((folder) => isInside(folder, file)) ?? path.dirname(file);
    const spec = path.relative(home, file).split(path.sep).join('/');
    if (found.includes(spec)) continue;
    const target = path.join(out, spec);
    if (!existsSync(target)) {
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(file, target);
    }
    found.push(spec);
  }
  return found;
}

/**
 * The route of each document's reference: `/api-reference/`, or one under it per document when there are
 * several, never a route the old site's pages already have.
 */
export function referenceRoutes(documents: string[], routes: ReadonlySet<string>): string[] {
  const taken = new Set(routes);
  return documents.map((document) => {
    const name = path.posix
      .basename(document)
      .replace(/\.(ya?ml|json)$/i, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-');
    const wanted = documents.length === 1 ? '/api-reference/' : `/api-reference/${name || 'api'}/`;
    let route = wanted;
    // A page at the route or under it would clash with the reference's own pages.
    for (let n = 2; [...taken].some((r) => r.startsWith(route)); n++) {
      route = `${wanted.slice(0, -1)}-${n}/`;
    }
    taken.add(route);
    return route;
  });
}
