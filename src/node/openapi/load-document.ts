import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isNode, isScalar, parseDocument, visit, type Document } from 'yaml';
import { documentValue, yamlErrorPosition } from '../scan/schema-errors';
import { positionAt, type DiagnosticList } from '../diagnostics';
import type { ApiDocument } from './document';
import { schemaDialectProblems } from './schema-dialect';

/** Reports a problem at a line and column of the OpenAPI document. */
type Report = (line: number, column: number, message: string) => void;

/**
 * Reads, validates and resolves one OpenAPI 3.0 or 3.1 document of the content folder (YAML or JSON), and
 * names the files it was read from (the document and those its `$ref`s lead to).
 * Every problem is reported at its line in the document (`spec`, relative to the content folder) and the
 * result is undefined: reference pages made from half a document would mislead their readers.
 *
 * The text is parsed here, with the same YAML library as the rest of the build, so that a problem the
 * validator finds by its JSON pointer can be given the line of the value it names. `{{ NAME }}` in a
 * server URL takes the value of the site's constant, as it would in a page. A 3.1 document's schemas are
 * checked against JSON Schema 2020-12 as well (schema-dialect.ts), which OpenAPI's own schema leaves open.
 */
export async function loadApiDocument(
  contentDir: string,
  spec: string,
  constants: Readonly<Record<string, string>>,
  diagnostics: DiagnosticList,
): Promise<{ api: ApiDocument; files: string[] } | undefined> {
  const report: Report = (line, column, message) => diagnostics.error(spec, line, column, message);
  const file = path.resolve(contentDir, spec);
  const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  const yaml = parseDocument(text, { prettyErrors: false });
  if (yaml.errors.length > 0) {
    for (const error of yaml.errors) {
      const { line, column } = error.linePos?.[0] ? yamlErrorPosition(error, 0) : positionAt(text, error.pos[0]);
      report(line, column, `invalid ${/\.json$/i.test(spec) ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0]}`);
    }
    return undefined;
  }
  const at = (pointer: readonly string[]) => positionOf(yaml, text, pointer);
  const value = documentValue(yaml, text, 0, report);
  if (value === undefined) return undefined;
  const version = (value as { openapi?: unknown }).openapi;
  if (typeof version !== 'string' || !/^3\.[01]\.\d+$/.test(version)) {
    const where = version === undefined ? { line: 1, column: 1 } : at(['openapi']);
    const found = version === undefined ? 'it has no "openapi" version' : `"openapi" is ${String(version)}`;
    report(where.line, where.column, `not an OpenAPI 3.0 or 3.1 document: ${found}`);
    return undefined;
  }
  if (!externalRefsInside(yaml, text, spec, report)) return undefined;
  let api: ApiDocument;
  let read: string[];
  try {
    // The library's resolver reads local files only: the build makes no network requests.
    const options = { resolve: { http: false as const } };
    // Loaded here, not with the build: a site without an API reference never pays for the validator.
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    const parser = new SwaggerParser();
    api = (await parser.validate(file, structuredClone(value) as never, options)) as unknown as ApiDocument;
    read = parser.$refs.paths('file').map((place) => path.resolve(place));
  } catch (error) {
    reportValidationError(error, yaml, text, report);
    return undefined;
  }
  if (version.startsWith('3.1.')) {
    const details = await schemaDialectProblems(value as Record<string, unknown>);
    if (details.length > 0) {
      reportValidationError({ details }, yaml, text, report);
      return undefined;
    }
  }
  const resolved = withServerConstants(api, constants, at, report);
  return resolved && { api: resolved, files: [...new Set([file, ...read])] };
}

/** Where the value at a JSON pointer's keys is, or its nearest parent that exists. */
function positionOf(yaml: Document, text: string, keys: readonly string[]): { line: number; column: number } {
  for (let depth = keys.length; depth >= 0; depth--) {
    const node = depth === 0 ? yaml.contents : yaml.getIn(keys.slice(0, depth), true);
    if (isNode(node) && node.range) return positionAt(text, node.range[0]);
  }
  return { line: 1, column: 1 };
}

const BRANCH_KEYWORDS = new Set(['if', 'oneOf', 'anyOf']);

/** `/paths/~1users/get` → `['paths', '/users', 'get']`. */
function pointerKeys(pointer: string): string[] {
  return pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((key) => decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The validator's finding, at the line of the value it concerns. Of the schema's complaints about a value
 * (one per branch of a `oneOf` it did not match), the deepest say what is wrong; the others only repeat
 * that the value matched no branch.
 */
function reportValidationError(error: unknown, yaml: Document, text: string, report: Report): void {
  const at = (keys: readonly string[]) => positionOf(yaml, text, keys);
  const details = (error as { details?: unknown }).details;
  if (Array.isArray(details) && details.length > 0) {
    type Detail = { instancePath: string; keyword?: string; message?: string; params?: { allowedValues?: unknown[] } };
    const all = details as Detail[];
    // "must match a schema in oneOf", "must match the else schema": the rule that failed is among the others.
    const specific = all.filter((d) => !BRANCH_KEYWORDS.has(d.keyword ?? ''));
    const found = specific.length > 0 ? specific : all;
    const depth = Math.max(...found.map((d) => pointerKeys(d.instancePath).length));
    const seen = new Set<string>();
    for (const detail of found) {
      const keys = pointerKeys(detail.instancePath);
      if (keys.length < depth) continue;
      const allowed = detail.params?.allowedValues?.map((v) => JSON.stringify(v)).join(', ');
      const message = `"${keys.join('.') || 'document'}" ${detail.message ?? 'is not valid'}${allowed ? `: ${allowed}` : ''}`;
      if (seen.has(message)) continue;
      seen.add(message);
      const { line, column } = at(keys);
      report(line, column, `invalid OpenAPI document: ${message}`);
    }
    return;
  }
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  // A `$ref` that names nothing: the validator gives the pointer, the writer needs the line that wrote it.
  const target = /\$ref pointer "([^"]+)"/.exec(message)?.[1] ?? (error as { targetRef?: string }).targetRef;
  const ref = target ? refNodes(yaml).find((node) => node.value === target || target.endsWith(node.value)) : undefined;
  const { line, column } = ref ? positionAt(text, ref.offset) : { line: 1, column: 1 };
  report(line, column, `invalid OpenAPI document: ${message.replace(/^Error resolving \$ref pointer/, '$ref')}`);
}

/** Every `$ref` of the document with its value and where it is written. */
function refNodes(yaml: Document): { value: string; offset: number }[] {
  const refs: { value: string; offset: number }[] = [];
  visit(yaml, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && pair.key.value === '$ref' && isScalar(pair.value)) {
        refs.push({ value: String(pair.value.value), offset: pair.value.range?.[0] ?? 0 });
      }
    },
  });
  return refs;
}

/**
 * A `$ref` to another file must name one inside the content folder, by a relative path: what the pages
 * show of it is published, and only what the writers' folder holds is (as for images).
 */
function externalRefsInside(yaml: Document, text: string, spec: string, report: Report): boolean {
  let ok = true;
  for (const ref of refNodes(yaml)) {
    const file = ref.value.split('#')[0]!;
    if (file === '') continue;
    const inside = !/^[a-z][a-z0-9+.-]*:/i.test(file) && !file.startsWith('/');
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(spec), file));
    if (inside && !resolved.startsWith('../')) continue;
    const { line, column } = positionAt(text, ref.offset);
    report(line, column, `$ref "${ref.value}" leads outside the content folder: refer to a file next to the document`);
    ok = false;
  }
  return ok;
}

/** The document with `{{ NAME }}` in its server URLs replaced by the site's constants. */
function withServerConstants(
  api: ApiDocument,
  constants: Readonly<Record<string, string>>,
  at: (keys: readonly string[]) => { line: number; column: number },
  report: Report,
): ApiDocument | undefined {
  let ok = true;
  const servers = (api.servers ?? []).map((server, index) => ({
    ...server,
    url: server.url.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (written, name: string) => {
      const value = constants[name];
      if (value !== undefined) return value;
      const { line, column } = at(['servers', String(index), 'url']);
      report(line, column, `unknown constant "${name}" in the server URL`);
      ok = false;
      return written;
    }),
  }));
  return ok ? { ...api, servers } : undefined;
}
