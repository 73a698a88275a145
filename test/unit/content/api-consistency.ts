import { marked, type Tokens } from 'marked';

/**
 * Checks that the hand-written API pages and the OpenAPI document of `content/api/openapi.yaml` tell a reader
 * the same thing: one name for the key's variable, the operations the pages name, the status codes they
 * promise, and examples in the generated reference that show real values for the operation they belong to.
 */

/** The parts of an OpenAPI document these checks read. */
export interface ApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

interface Operation {
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The resource roots of the REST API: a code span `GET /x/...` under one of them names an operation. */
const API_ROOTS = /^\/(components|sources|subscriptions|webhooks|workflows|users|orgs)\b/;

/** A path with its parameters written as `{}`, so `/sources/{source_id}` and `/sources/{id}` compare equal. */
const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{}').replace(/\/$/, '');

function operations(api: ApiDocument): { method: string; path: string; operation: Operation }[] {
  return Object.entries(api.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      method,
      path,
      operation: item[method] as Operation,
    })),
  );
}

/** `GET /sources/{source_id}/sse` and the like, written as code spans in a page's markdown. */
export function namedOperations(markdown: string): { method: string; path: string }[] {
  const named: { method: string; path: string }[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type !== 'codespan') return;
    const match = /^(GET|POST|PUT|DELETE|PATCH) (\/\S*)$/.exec((token as Tokens.Codespan).text);
    if (match && API_ROOTS.test(match[2] ?? '')) named.push({ method: match[1] ?? '', path: match[2] ?? '' });
  });
  return named;
}

/**
 * Operations a page names that the document does not describe; a path ending in `/sse` must answer with
 * `text/event-stream`, which is what makes it a stream rather than a JSON call.
 */
export function operationsMissingFromDocument(markdown: string, api: ApiDocument): string[] {
  const known = operations(api);
  return namedOperations(markdown).flatMap(({ method, path }) => {
    const found = known.find((op) => op.method === method.toLowerCase() && shape(op.path) === shape(path));
    if (!found) return [`${method} ${path} is not in the OpenAPI document`];
    if (!path.endsWith('/sse')) return [];
    const ok = found.operation.responses?.['200']?.content?.['text/event-stream'];
    return ok ? [] : [`${method} ${path} does not answer with text/event-stream`];
  });
}

/** Status codes (`403`, `429 Too Many Requests`) a page gives in code spans that no operation declares. */
export function undeclaredStatuses(markdown: string, api: ApiDocument): string[] {
  const declared = new Set(operations(api).flatMap(({ operation }) => Object.keys(operation.responses ?? {})));
  const named = new Set<string>();
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type !== 'codespan') return;
    const match = /^([1-5]\d\d)\b/.exec((token as Tokens.Codespan).text);
    if (match && !match[1]?.startsWith('5')) named.add(match[1] ?? '');
  });
  return [...named].filter((code) => !declared.has(code)).map((code) => `${code} is declared by no operation`);
}

/**
 * Names of the environment variable that holds the Pipedream API key in the pages' examples: the variable a
 * code block that calls the API sends as the bearer token (`Bearer $X`, `Bearer ${process.env.X}`,
 * `os.environ['X']` on the header's line), and any `PD_…KEY`/`PIPEDREAM_…KEY` wherever it is written.
 */
export function apiKeyVariables(files: Record<string, string>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (name: string, file: string) => {
    const where = found.get(name) ?? [];
    if (!where.includes(file)) found.set(name, [...where, file]);
  };
  for (const [file, text] of Object.entries(files)) {
    for (const name of text.match(/\b(PD|PIPEDREAM)_[A-Z0-9_]*(KEY|TOKEN)\b/g) ?? []) add(name, file);
    for (const block of text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)) {
      const code = block[1] ?? '';
      if (!/api\.pipedream\.com|API_BASE/.test(code)) continue;
      for (const line of code.split('\n').filter((l) => /Bearer/.test(l))) {
        const read =
          /Bearer \$\{?([A-Z][A-Z0-9_]*)\b|process\.env\.([A-Z][A-Z0-9_]*)|os\.environ\[['"]([A-Z][A-Z0-9_]*)/.exec(
            line,
          );
        if (read) add(read[1] ?? read[2] ?? read[3] ?? '', file);
      }
    }
  }
  return found;
}

/**
 * Placeholder values an example generator writes when the document gives no example: `"string"` for a
 * string field. A field named `type` may hold the word `string` as its real value (a prop's type).
 */
export function placeholderValues(markdown: string): string[] {
  return [...markdown.matchAll(/"([\w$]+)"\s*:\s*"string"/g)]
    .filter((match) => match[1] !== 'type')
    .map((match) => `"${match[1]}": "string"`);
}

/** One operation of a generated reference page: its heading id, path, and the JSON example of each status. */
export interface ReferenceOperation {
  id: string;
  path: string;
  examples: Map<string, string>;
}

/** Splits a generated reference page's markdown into its operations. */
export function referenceOperations(markdown: string): ReferenceOperation[] {
  return markdown
    .split(/^## /m)
    .slice(1)
    .flatMap((section) => {
      const id = /\{#([^}]+)\}/.exec(section)?.[1];
      const path = /^`[A-Z]+ (\/[^`]*)`/m.exec(section)?.[1];
      if (!id || !path) return [];
      const examples = new Map<string, string>();
      for (const block of section.matchAll(/^::: details (\d{3}):[\s\S]*?^:::$/gm)) {
        const json = /```json\n([\s\S]*?)```/.exec(block[0])?.[1];
        if (json) examples.set(block[1] ?? '', json.trim());
      }
      return [{ id, path, examples }];
    });
}

/** The ID prefix of the resource a path's last parameter names (`/webhooks/{webhook_id}` → `wh_`). */
const PREFIXES: Record<string, string> = {
  component_id: 'sc_',
  source_id: 'dc_',
  subscription_id: 'sub_',
  webhook_id: 'wh_',
  workflow_id: 'p_',
  org_id: 'o_',
};

/** 404 examples that name a resource of another kind than the one the operation's path asks for. */
export function misdirectedNotFound(ops: ReferenceOperation[]): string[] {
  return ops.flatMap(({ id, path, examples }) => {
    const example = examples.get('404');
    const parameter = [...path.matchAll(/\{(\w+)\}/g)].pop()?.[1];
    const prefix = parameter ? PREFIXES[parameter] : undefined;
    if (!example || !prefix) return [];
    return new RegExp(`\\b${prefix}[a-z0-9]+`).test(example) ? [] : [`${id}: its 404 example names no ${prefix} ID`];
  });
}

/** The resource a path acts on: `/webhooks` and `/webhooks/{webhook_id}` are one, `…/$errors/…` another. */
const resourceOf = (path: string) => shape(path).replace(/\/\{\}$/, '');

/**
 * Operations on different resources whose success example is word for word the same: each shows its own
 * answer. Creating and reading one webhook may show the same webhook; a workflow's errors are not a source's
 * events.
 */
export function sharedSuccessExamples(ops: ReferenceOperation[]): string[] {
  const seen = new Map<string, ReferenceOperation[]>();
  const problems: string[] = [];
  for (const op of ops) {
    const example = op.examples.get('200');
    if (!example) continue;
    const before = seen.get(example) ?? [];
    const other = before.find((o) => resourceOf(o.path) !== resourceOf(op.path));
    if (other) problems.push(`${op.id} shows the same 200 example as ${other.id}`);
    seen.set(example, [...before, op]);
  }
  return problems;
}
