import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticList, formatDiagnostic } from '../../../../src/node/diagnostics';
import { loadApiDocument } from '../../../../src/node/openapi/load-document';

/** Writes the files into a fresh content folder and loads `spec` from it. */
async function load(files: Record<string, string>, spec = 'api/openapi.yaml', constants = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-openapi-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  const diagnostics = new DiagnosticList(true);
  const api = (await loadApiDocument(dir, spec, constants, diagnostics))?.api;
  return { api, messages: diagnostics.sorted().map(formatDiagnostic) };
}

const VALID = `openapi: 3.1.0
info:
  title: Users
  version: "1"
servers:
  - url: "{{ API_BASE }}"
paths:
  /users/{id}:
    get:
      operationId: getUser
      parameters:
        - name: id
          in: path
          required: true
          schema: { type: string }
      responses:
        "200":
          description: The user.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/User"
components:
  schemas:
    User:
      type: object
      properties:
        name: { type: string }
`;

describe('loadApiDocument', () => {
  it('resolves $refs and takes the server URL from the site constants', async () => {
    const { api, messages } = await load({ 'api/openapi.yaml': VALID }, 'api/openapi.yaml', {
      API_BASE: 'https://api.example.com/v1',
    });
    expect(messages).toEqual([]);
    expect(api?.servers?.[0]?.url).toBe('https://api.example.com/v1');
    const schema = api?.paths?.['/users/{id}']?.get?.responses?.['200']?.content?.['application/json']?.schema;
    expect(schema?.properties?.['name']).toEqual({ type: 'string' });
  });

  it('reads a 3.0 document written as JSON, with a $ref into a file beside it', async () => {
    const json = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: { '/ping': { get: { responses: { '200': { $ref: 'responses.yaml#/Pong' } } } } },
    };
    const { api, messages } = await load(
      {
        'api/openapi.json': JSON.stringify(json, null, 2),
        'api/responses.yaml': 'Pong:\n  description: It answers.\n',
      },
      'api/openapi.json',
    );
    expect(messages).toEqual([]);
    expect(api?.paths?.['/ping']?.get?.responses?.['200']?.description).toBe('It answers.');
  });

  it('reports a YAML syntax error at its line', async () => {
    const broken = VALID.replace('  version: "1"', '  version: "1\n  other: [');
    const { api, messages } = await load({ 'api/openapi.yaml': broken });
    expect(api).toBeUndefined();
    expect(messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatch(/^api\/openapi\.yaml:4:\d+ invalid YAML: /);
  });

  it('reports what breaks the OpenAPI schema at the line of the value, not of the document', async () => {
    const broken = VALID.replace('          in: path', '          in: body');
    const { api, messages } = await load({ 'api/openapi.yaml': broken });
    expect(api).toBeUndefined();
    expect(messages).toEqual([
      'api/openapi.yaml:13:15 invalid OpenAPI document: "paths./users/{id}.get.parameters.0.in" must be equal to one of the allowed values: "query", "header", "path", "cookie"',
    ]);
  });

  it('checks a 3.1 schema against JSON Schema 2020-12, at the line of the misspelt value', async () => {
    const broken = VALID.replace('name: { type: string }', 'name: { type: strnig }');
    const { api, messages } = await load({ 'api/openapi.yaml': broken });
    expect(api).toBeUndefined();
    expect(messages).toEqual([
      'api/openapi.yaml:28:23 invalid OpenAPI document: "components.schemas.User.properties.name.type" must be equal to one of the allowed values: "array", "boolean", "integer", "null", "number", "object", "string"',
    ]);
  });

  it('checks the schemas of parameters and bodies in 3.1, not the example data beside them', async () => {
    const broken = VALID.replace('schema: { type: string }', 'schema: { type: string, minLength: -1 }').replace(
      '          description: The user.\n',
      '          description: The user.\n          x-sample: { schema: { type: 7 } }\n',
    );
    const { messages } = await load({ 'api/openapi.yaml': broken });
    expect(messages).toEqual([
      'api/openapi.yaml:15:46 invalid OpenAPI document: "paths./users/{id}.get.parameters.0.schema.minLength" must be >= 0',
    ]);
  });

  it('reports a $ref that names nothing at the line of the $ref', async () => {
    const broken = VALID.replace('#/components/schemas/User', '#/components/schemas/Usr');
    const { api, messages } = await load({ 'api/openapi.yaml': broken });
    expect(api).toBeUndefined();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^api\/openapi\.yaml:22:23 invalid OpenAPI document: .*#\/components\/schemas\/Usr/);
  });

  it('refuses a document that is not OpenAPI 3.0 or 3.1, at its version', async () => {
    const { messages } = await load({ 'api/openapi.yaml': VALID.replace('openapi: 3.1.0', 'openapi: 2.0') });
    expect(messages).toEqual(['api/openapi.yaml:1:10 not an OpenAPI 3.0 or 3.1 document: "openapi" is 2']);
  });

  it('refuses a $ref to a file outside the content folder, before reading it', async () => {
    const broken = VALID.replace('"#/components/schemas/User"', '"../../secrets.yaml#/User"');
    const { messages } = await load({ 'api/openapi.yaml': broken });
    expect(messages).toEqual([
      'api/openapi.yaml:22:23 $ref "../../secrets.yaml#/User" leads outside the content folder: refer to a file next to the document',
    ]);
  });

  it('names an unknown constant in a server URL at its line', async () => {
    const { messages } = await load({ 'api/openapi.yaml': VALID });
    expect(messages).toEqual(['api/openapi.yaml:6:10 unknown constant "API_BASE" in the server URL']);
  });
});
