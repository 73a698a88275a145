import GithubSlugger from 'github-slugger';
import { stringify } from 'yaml';
import { METHODS, type ApiDocument, type Method, type Operation, type Parameter, type Schema } from './document';
import { cell, constraints, inlineValue, mediaExample, oneLine, schemaList, typeLabel } from './schema-markdown';
import { curlSnippet, nodeSnippet, pythonSnippet, type SnippetRequest } from './snippets';

/** A generated page: its path as if it were a file of the content folder, and its markdown. */
export interface ReferencePage {
  relativePath: string;
  route: string;
  markdown: string;
}

/** One operation of the document, with what its page section is made from. */
interface OperationEntry {
  method: Method;
  path: string;
  operation: Operation;
  /** Its parameters: the path item's, overridden by the operation's own of the same name and place. */
  parameters: Parameter[];
  /** The heading id: the operationId where it makes one, so that links to it outlive a new summary. */
  anchor: string;
}

interface TagPage {
  name: string;
  description?: string;
  slug: string;
  operations: OperationEntry[];
}

/** Operations without a tag are listed on a page of this name. */
const UNTAGGED = 'Other operations';

/**
 * The reference pages of one OpenAPI document, as markdown sources the page pass reads like any page:
 * an overview at `route` listing every operation, and a page per tag with a section per operation
 * (its heading id is stable, `{#operationId}`), parameters as a table, the request body and each response
 * as a folded schema with an example, and a code group with the request in curl, Node.js and Python.
 */
export function referencePages(api: ApiDocument, route: string): ReferencePage[] {
  const tags = tagPages(api);
  const folder = route.slice(1);
  const pages: ReferencePage[] = [
    { relativePath: `${folder}README.md`, route, markdown: overviewPage(api, tags, route) },
  ];
  for (const tag of tags) {
    pages.push({
      relativePath: `${folder}${tag.slug}.md`,
      route: `${route}${tag.slug}/`,
      markdown: tagPage(api, tag),
    });
  }
  return pages;
}

function tagPages(api: ApiDocument): TagPage[] {
  const byName = new Map<string, TagPage>();
  const slugger = new GithubSlugger();
  const tagOf = (name: string): TagPage => {
    let tag = byName.get(name);
    if (!tag) {
      const described = api.tags?.find((t) => t.name === name)?.description;
      // `readme` would be the overview's own file.
      const slug = slugger.slug(name) || 'operations';
      tag = { name, slug: slug === 'readme' ? slugger.slug('readme-operations') : slug, operations: [] };
      if (described) tag.description = described;
      byName.set(name, tag);
    }
    return tag;
  };
  for (const tag of api.tags ?? []) tagOf(tag.name);
  const anchors = new GithubSlugger();
  for (const [path, item] of Object.entries(api.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const own = operation.parameters ?? [];
      const inherited = (item.parameters ?? []).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
      const id = operation.operationId;
      const anchor =
        id && /^[A-Za-z][\w-]*$/.test(id)
          ? anchors.slug(id, true)
          : anchors.slug(`${method} ${path}`.replace(/[^A-Za-z0-9_]+/g, ' ').trim());
      const entry: OperationEntry = { method, path, operation, parameters: [...inherited, ...own], anchor };
      tagOf(operation.tags?.[0] ?? UNTAGGED).operations.push(entry);
    }
  }
  return [...byName.values()].filter((tag) => tag.operations.length > 0);
}

function frontmatter(title: string, description: string): string {
  return `---\n${stringify({ title, description }, { lineWidth: 0 })}---\n\n`;
}

/** The first sentence of a markdown text, as plain words for a meta description. */
function firstSentence(text: string | undefined): string {
  const line = oneLine(text)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '');
  return /^.*?[.!?](\s|$)/.exec(line)?.[0].trim() ?? line;
}

function overviewPage(api: ApiDocument, tags: TagPage[], route: string): string {
  const { info } = api;
  const server = api.servers?.[0]?.url;
  const lines = [
    frontmatter(info.title, firstSentence(info.description) || `Every operation of ${info.title}, by resource.`),
    `# ${info.title}`,
    '',
  ];
  if (info.description) lines.push(info.description.trim(), '');
  lines.push(`Version \`${info.version}\`.${server ? ` Paths are relative to \`${server}\`.` : ''}`, '');
  const schemes = Object.entries(api.components?.securitySchemes ?? {});
  if (schemes.length > 0) {
    lines.push('## Authentication', '');
    for (const [name, scheme] of schemes) {
      lines.push(`- ${credentialText(name, api)}${scheme.description ? ` ${oneLine(scheme.description)}` : ''}`);
    }
    lines.push('');
  }
  for (const tag of tags) {
    lines.push(`## ${tag.name}`, '');
    if (tag.description) lines.push(tag.description.trim(), '');
    lines.push('| Operation | Request |', '|---|---|');
    for (const entry of tag.operations) {
      const link = `${route}${tag.slug}/#${entry.anchor}`;
      lines.push(`| [${cell(title(entry))}](${link}) | \`${entry.method.toUpperCase()} ${entry.path}\` |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

function title(entry: OperationEntry): string {
  return oneLine(entry.operation.summary) || `${entry.method.toUpperCase()} ${entry.path}`;
}

function tagPage(api: ApiDocument, tag: TagPage): string {
  const fallback =
    tag.name === UNTAGGED
      ? `The operations of ${api.info.title} without a tag.`
      : `The ${tag.name} operations of ${api.info.title}.`;
  const description = firstSentence(tag.description) || fallback;
  const lines = [frontmatter(tag.name, description), `# ${tag.name}`, ''];
  if (tag.description) lines.push(tag.description.trim(), '');
  for (const entry of tag.operations) lines.push(operationSection(api, entry));
  return lines.join('\n');
}

function operationSection(api: ApiDocument, entry: OperationEntry): string {
  const { operation, method, path } = entry;
  // The heading's text is the summary; its id, written out, stays when the summary is reworded.
  const lines = [`## ${title(entry)} {#${entry.anchor}}`, '', `\`${method.toUpperCase()} ${path}\``, ''];
  if (operation.deprecated) lines.push('::: warning Deprecated', 'This operation is deprecated.', ':::', '');
  if (operation.description) lines.push(operation.description.trim(), '');
  const facts: string[] = [];
  if (operation.operationId) facts.push(`Operation ID: \`${operation.operationId}\``);
  const security = operation.security ?? api.security ?? [];
  const scheme = Object.keys(security[0] ?? {})[0];
  facts.push(`Authentication: ${scheme ? credentialText(scheme, api) : 'none'}`);
  lines.push(facts.map((fact) => `- ${fact}`).join('\n'), '');
  const parameters = entry.parameters.filter((p) => p.in !== 'cookie');
  if (parameters.length > 0) {
    lines.push(
      '**Parameters**',
      '',
      '| Name | In | Type | Required | Default | Description |',
      '|---|---|---|---|---|---|',
    );
    for (const parameter of parameters) {
      const { default: fallback, ...schema } = parameter.schema ?? {};
      const about = [oneLine(parameter.description), constraints(schema)].filter(Boolean).join(' ');
      const required = parameter.required || parameter.in === 'path' ? 'yes' : 'no';
      const shown = fallback === undefined ? '' : cell(inlineValue(fallback));
      const type = cell(typeLabel(parameter.schema));
      lines.push(`| \`${parameter.name}\` | ${parameter.in} | ${type} | ${required} | ${shown} | ${cell(about)} |`);
    }
    lines.push('');
  }
  const body = operation.requestBody;
  for (const [type, media] of Object.entries(body?.content ?? {})) {
    lines.push(`::: details Request body: ${type}${body?.required ? ', required' : ''}`);
    if (body?.description) lines.push(body.description.trim(), '');
    if (media.schema) lines.push(schemaList(media.schema));
    lines.push(...exampleBlock(mediaExample(media, 'request'), type), ':::', '');
  }
  lines.push('**Responses**', '');
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const heading = `${status}${response.description ? `: ${oneLine(response.description)}` : ''}`;
    const content = Object.entries(response.content ?? {});
    if (content.length === 0) {
      lines.push(`- \`${status}\`${response.description ? `: ${oneLine(response.description)}` : ''}`, '');
      continue;
    }
    for (const [type, media] of content) {
      lines.push(`::: details ${heading} (${type})`);
      if (media.schema) lines.push(schemaList(media.schema));
      lines.push(...exampleBlock(mediaExample(media, 'response'), type), ':::', '');
    }
  }
  const request = snippetRequest(api, entry);
  lines.push(
    '::: code-group',
    fence('bash [curl]', curlSnippet(request)),
    fence('javascript [Node.js]', nodeSnippet(request)),
    fence('python [Python]', pythonSnippet(request)),
    ':::',
    '',
  );
  return lines.join('\n');
}

/** A fenced block whose fence is longer than any run of backticks in its code. */
function fence(info: string, code: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${info}\n${code}\n${marks}`;
}

function exampleBlock(example: unknown, type: string): string[] {
  if (example === undefined) return [];
  const json = /json/i.test(type);
  const text = json || typeof example !== 'string' ? JSON.stringify(example, null, 2) : example;
  return ['', '**Example**', '', fence(json ? 'json' : 'text', text), ''];
}

/** How an operation is authorised, in words: "a bearer token in the `Authorization` header". */
function credentialText(name: string, api: ApiDocument): string {
  const scheme = api.components?.securitySchemes?.[name];
  if (!scheme) return `\`${name}\``;
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    return 'HTTP basic authentication (`Authorization: Basic …`)';
  }
  if (scheme.type === 'apiKey') return `an API key in the \`${scheme.name ?? ''}\` ${scheme.in ?? 'header'}`;
  return 'a bearer token in the `Authorization` header (`Authorization: Bearer …`)';
}

/** A value to show for a parameter in a request: its example, its default, its first allowed value. */
function sampleValue(parameter: Parameter): unknown {
  const schema: Schema = parameter.schema ?? {};
  return (
    parameter.example ??
    Object.values(parameter.examples ?? {})[0]?.value ??
    schema.example ??
    schema.default ??
    schema.enum?.[0]
  );
}

/** The request the code group shows: the example values, the required query and header parameters, the body. */
function snippetRequest(api: ApiDocument, entry: OperationEntry): SnippetRequest {
  const { operation, method } = entry;
  let path = entry.path;
  const query = new URLSearchParams();
  const headers: SnippetRequest['headers'] = [];
  for (const parameter of entry.parameters) {
    const value = sampleValue(parameter);
    if (parameter.in === 'path') {
      const shown = value === undefined ? `{${parameter.name}}` : encodeURIComponent(String(value));
      path = path.split(`{${parameter.name}}`).join(shown);
    } else if (parameter.required || value !== undefined) {
      const shown = value === undefined ? parameter.name : String(value);
      if (parameter.in === 'query' && (parameter.required || parameter.example !== undefined))
        query.set(parameter.name, shown);
      if (parameter.in === 'header' && parameter.required) headers.push({ name: parameter.name, value: shown });
    }
  }
  const search = query.size > 0 ? `?${query.toString()}` : '';
  const base = (api.servers?.[0]?.url ?? '').replace(/\/$/, '');
  const request: SnippetRequest = {
    method: method.toUpperCase(),
    url: `${base}${path}${search}`,
    headers,
    jsonAnswer: false,
  };
  const security = operation.security ?? api.security ?? [];
  const name = Object.keys(security[0] ?? {})[0];
  const scheme = name ? api.components?.securitySchemes?.[name] : undefined;
  if (name && scheme) {
    const env = name
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .toUpperCase();
    if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) {
      request.credential = { header: scheme.name, prefix: '', env };
    } else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
      request.credential = { header: 'Authorization', prefix: 'Basic ', env };
    } else if (scheme.type !== 'apiKey') {
      request.credential = { header: 'Authorization', prefix: 'Bearer ', env };
    }
  }
  const json = Object.entries(operation.requestBody?.content ?? {}).find(([type]) => /json/i.test(type));
  if (json) request.body = mediaExample(json[1], 'request');
  const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2/.test(status))?.[1];
  request.jsonAnswer = Object.keys(success?.content ?? {}).some((type) => /json/i.test(type));
  return request;
}
