/**
 * The request of an operation as `curl`, Node.js (`fetch`) and Python (`requests`), for the reference
 * pages' code groups. Written here rather than with an HTTP-snippet library: a JSON request in three
 * languages is a few lines each, and those libraries bring a command line's dependencies, or a newer
 * Node than the build runs on, with them.
 */
export interface SnippetRequest {
  /** `GET`, `POST`, … */
  method: string;
  /** The whole URL, path parameters filled in, query included. */
  url: string;
  /** Headers sent as written. */
  headers: { name: string; value: string }[];
  /** A credential read from an environment variable: `Authorization: Bearer $API_KEY`. */
  credential?: { header: string; prefix: string; env: string };
  /** A JSON body. */
  body?: unknown;
  /** Whether a successful answer has a JSON body worth printing. */
  jsonAnswer: boolean;
}

/**
 * Whether the request asks for Server-Sent Events: an answer that arrives a line at a time and stays open,
 * so the code prints it as it comes instead of waiting for an end that never arrives.
 */
function streams(request: SnippetRequest): boolean {
  return request.headers.some(
    (header) => header.name.toLowerCase() === 'accept' && header.value.trim() === 'text/event-stream',
  );
}

/** A string for a POSIX shell, in single quotes, in which nothing expands (`$errors` in a path stays). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlSnippet(request: SnippetRequest): string {
  const method = request.method === 'GET' ? '' : ` -X ${request.method}`;
  // -N: print each event as it arrives rather than when curl's buffer fills.
  const lines = [`curl -s${streams(request) ? 'N' : ''}${method} ${shellQuote(request.url)}`];
  const { credential } = request;
  // Double quotes, so that the shell reads the key from the environment.
  if (credential) lines.push(`-H "${credential.header}: ${credential.prefix}$${credential.env}"`);
  for (const header of request.headers) lines.push(`-H ${shellQuote(`${header.name}: ${header.value}`)}`);
  if (request.body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(request.body, null, 2))}`);
  }
  return lines.join(' \\\n  ');
}

/** A JSON value as JavaScript source, indented to sit at `indent`. */
function javascriptValue(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

export function nodeSnippet(request: SnippetRequest): string {
  const headers: string[] = [];
  const { credential } = request;
  if (credential) {
    const value = `\`${credential.prefix}\${process.env.${credential.env}}\``;
    headers.push(`    ${JSON.stringify(credential.header)}: ${value},`);
  }
  for (const header of request.headers)
    headers.push(`    ${JSON.stringify(header.name)}: ${JSON.stringify(header.value)},`);
  if (request.body !== undefined) headers.push(`    "Content-Type": "application/json",`);
  const options = [`  method: ${JSON.stringify(request.method)},`];
  if (headers.length > 0) options.push('  headers: {', ...headers, '  },');
  if (request.body !== undefined) options.push(`  body: JSON.stringify(${javascriptValue(request.body, '  ')}),`);
  const answer = streams(request)
    ? [
        'const decoder = new TextDecoder();',
        'for await (const chunk of response.body) process.stdout.write(decoder.decode(chunk, { stream: true }));',
      ]
    : [`console.log(${request.jsonAnswer ? 'await response.json()' : 'response.status'});`];
  return [`const response = await fetch(${JSON.stringify(request.url)}, {`, ...options, '});', ...answer].join('\n');
}

/** A JSON value as a Python literal (`None`, `True`, dicts and lists), indented to sit at `indent`. */
export function pythonValue(value: unknown, indent: string): string {
  const inner = `${indent}    `;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonValue(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const items = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonValue(item, inner)},`);
  return `{\n${items.join('\n')}\n${indent}}`;
}

const REQUESTS_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

export function pythonSnippet(request: SnippetRequest): string {
  const { credential } = request;
  const headers: string[] = [];
  if (credential) {
    headers.push(
      `        ${JSON.stringify(credential.header)}: f"${credential.prefix}{os.environ['${credential.env}']}",`,
    );
  }
  for (const header of request.headers)
    headers.push(`        ${JSON.stringify(header.name)}: ${JSON.stringify(header.value)},`);
  const args = [`    ${JSON.stringify(request.url)},`];
  if (headers.length > 0) args.push('    headers={', ...headers, '    },');
  // requests sets Content-Type: application/json for a `json=` body.
  if (request.body !== undefined) args.push(`    json=${pythonValue(request.body, '    ')},`);
  // stream=True: requests otherwise reads the whole answer before returning, and a stream has no end.
  if (streams(request)) args.push('    stream=True,');
  const imports = credential ? ['import os', '', 'import requests'] : ['import requests'];
  const method = request.method.toLowerCase();
  // requests has a function for each common method; any other goes through `requests.request`.
  const call = REQUESTS_METHODS.has(method)
    ? `requests.${method}(`
    : `requests.request(\n    ${JSON.stringify(request.method)},`;
  const answer = streams(request)
    ? ['for line in response.iter_lines(decode_unicode=True):', '    print(line)']
    : [`print(${request.jsonAnswer ? 'response.json()' : 'response.status_code'})`];
  return [...imports, '', `response = ${call}`, ...args, ')', ...answer].join('\n');
}
