import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
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
    if (!/\.(ya?ml|json)$/i.test(file) || (await stat(file)).size > MAX_DOCUMENT_BYTES) continue;
    let value: unknown;
    try {
      value = parse(await readFile(file, 'utf8'));
    } catch {
      continue;
    }
    const version = (value as { openapi?: unknown } | null)?.openapi;
    if (typeof version === 'string' && /^3\./.test(version)) {
      found.push(path.relative(publicDir, file).split(path.sep).join('/'));
    }
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
