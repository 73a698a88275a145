import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Manifest } from '../../../src/shared/types';
import { buildTree, makeTree, projectRoot } from '../../helpers/tree';
import {
  type ApiDocument,
  apiKeyVariables,
  misdirectedNotFound,
  operationsMissingFromDocument,
  placeholderValues,
  referenceOperations,
  sharedSuccessExamples,
  undeclaredStatuses,
} from './api-consistency';
import { examplesPromisedButMissing, sectionPointersWithoutSection, unpublishedRemarks } from './reader-pointers';

const contentDir = path.join(projectRoot, 'content');
const api = parse(readFileSync(path.join(contentDir, 'api/openapi.yaml'), 'utf8')) as ApiDocument;
const markdown = Object.fromEntries(
  readdirSync(contentDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => [file, readFileSync(path.join(contentDir, file), 'utf8')]),
);
const page = (file: string) => markdown[file] ?? '';

let root: string;
let manifest: Manifest;
/** Each page's rendered fragment, by route, with its description as a paragraph before it. */
let fragments: Record<string, string>;
/** The generated reference pages' markdown twins, by file name. */
let reference: Record<string, string>;

beforeAll(async () => {
  root = await makeTree({});
  const result = await buildTree(root, { contentDir });
  expect(result.diagnostics).toEqual([]);
  manifest = JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
  fragments = Object.fromEntries(
    manifest.pages.map((p) => [
      p.path,
      `<p>${String(p.frontmatter.description ?? '')}</p>\n` +
        readFileSync(path.join(root, 'manifest/pages', `${p.key}.html`), 'utf8'),
    ]),
  );
  const referenceDir = path.join(root, 'dist/api/reference');
  reference = Object.fromEntries(
    readdirSync(referenceDir)
      .filter((file) => file.endsWith('.md'))
      .map((file) => [file, readFileSync(path.join(referenceDir, file), 'utf8')]),
  );
}, 120_000);

describe('the API pages and the OpenAPI document', () => {
  it('name one environment variable for the API key, the one the generated reference reads', () => {
    const files = {
      ...markdown,
      ...Object.fromEntries(Object.entries(reference).map(([f, t]) => [`reference/${f}`, t])),
    };
    expect([...apiKeyVariables(files).keys()]).toEqual(['PIPEDREAM_API_KEY']);
  });

  it('finds a second name for the key in an example that calls the API', () => {
    const call = (name: string) =>
      `\`\`\`bash\ncurl https://api.pipedream.com/v1/users/me -H "Authorization: Bearer $${name}"\n\`\`\`\n`;
    expect([...apiKeyVariables({ 'a.md': call('PIPEDREAM_API_KEY'), 'b.md': call('PD_API_KEY') }).keys()]).toEqual([
      'PIPEDREAM_API_KEY',
      'PD_API_KEY',
    ]);
    const other = '```bash\ncurl https://api.example.com -H "Authorization: Bearer $WEATHER_API_KEY"\n```\n';
    expect([...apiKeyVariables({ 'c.md': other }).keys()]).toEqual([]);
  });

  it('show no placeholder values in the examples of the generated reference', () => {
    const found = Object.entries(reference).flatMap(([file, text]) =>
      placeholderValues(text).map((value) => `${file}: ${value}`),
    );
    expect(found).toEqual([]);
    expect(placeholderValues('{ "component_code": "string", "type": "string" }')).toEqual([
      '"component_code": "string"',
    ]);
  });

  it('give each operation its own success example, and each 404 the kind of resource its path names', () => {
    const ops = Object.values(reference).flatMap(referenceOperations);
    expect(ops.length).toBeGreaterThanOrEqual(27);
    expect(sharedSuccessExamples(ops)).toEqual([]);
    expect(misdirectedNotFound(ops)).toEqual([]);
  });

  it('finds a shared example and a 404 that names another resource', () => {
    const section = (id: string, path: string, ok: string, missing: string) =>
      `## ${id} {#${id}}\n\n\`GET ${path}\`\n\n::: details 200: ok (application/json)\n\n\`\`\`json\n${ok}\n\`\`\`\n:::\n\n` +
      `::: details 404: none (application/json)\n\n\`\`\`json\n${missing}\n\`\`\`\n:::\n`;
    const ops = referenceOperations(
      [
        '# X\n',
        section('getWebhook', '/webhooks/{webhook_id}', '{ "id": "wh_1" }', '"No source dc_abc123"'),
        section('createWebhook', '/webhooks', '{ "id": "wh_1" }', '"No webhook wh_abc123"'),
        section('getSource', '/sources/{source_id}', '{ "id": "wh_1" }', '"No source dc_abc123"'),
      ].join('\n'),
    );
    expect(sharedSuccessExamples(ops)).toEqual(['getSource shows the same 200 example as getWebhook']);
    expect(misdirectedNotFound(ops)).toEqual(['getWebhook: its 404 example names no wh_ ID']);
  });

  it('describe in the document every operation the API pages name, the SSE stream as text/event-stream', () => {
    const pages = Object.keys(markdown).filter((file) => file.startsWith('api/'));
    expect(page('api/overview/README.md')).toContain('`GET /sources/{source_id}/sse`');
    expect(pages.flatMap((file) => operationsMissingFromDocument(page(file), api).map((p) => `${file}: ${p}`))).toEqual(
      [],
    );
  });

  it('show the SSE stream read as it arrives in curl, Node.js and Python', () => {
    const events = reference['events.md'] ?? '';
    const section = events.slice(events.indexOf('{#streamSourceEvents}'), events.indexOf('{#deleteSourceEvents}'));
    const block = (info: string) => new RegExp(`\`{3,}${info}\\n([\\s\\S]*?)\\n\`{3,}`).exec(section)?.[1] ?? '';
    expect(block('bash \\[curl\\]')).toMatch(/^curl -sN /);
    const node = block('javascript \\[Node.js\\]');
    const python = block('python \\[Python\\]');
    expect(node).toContain('for await (const chunk of response.body)');
    expect(python).toContain('stream=True');
    expect(python).toContain('response.iter_lines(');
    writeFileSync(path.join(root, 'stream.mjs'), node);
    writeFileSync(path.join(root, 'stream.py'), python);
    execFileSync(process.execPath, ['--check', path.join(root, 'stream.mjs')]);
    execFileSync('python3', ['-m', 'py_compile', path.join(root, 'stream.py')]);
  });

  it('finds an operation the document lacks, and a stream described as JSON', () => {
    const doc: ApiDocument = {
      paths: { '/sources/{source_id}/sse': { get: { responses: { '200': { content: { 'application/json': {} } } } } } },
    };
    expect(operationsMissingFromDocument('Call `GET /sources/{id}/sse` or `POST /users/me`.', doc)).toEqual([
      'GET /sources/{id}/sse does not answer with text/event-stream',
      'POST /users/me is not in the OpenAPI document',
    ]);
  });

  it('promise only status codes that an operation of the document declares', () => {
    const pages = ['api/overview/README.md', 'api/sse/README.md', 'api/auth/README.md', 'api/rest/README.md'];
    expect(pages.flatMap((file) => undeclaredStatuses(page(file), api).map((p) => `${file}: ${p}`))).toEqual([]);
    expect(undeclaredStatuses('Stop on `403` or `503`.', { paths: {} })).toEqual(['403 is declared by no operation']);
  });
});

describe('pointers on every page', () => {
  it('link the section they name, not only its page', () => {
    const headings = Object.fromEntries(manifest.pages.map((p) => [p.path, p.headers.map((h) => h.title)]));
    expect(sectionPointersWithoutSection(fragments, headings, manifest.site.base)).toEqual([]);
  });

  it('finds a section named with a link to its page only', () => {
    const base = '/docs/';
    const pages = {
      '/a/': `<p>Change plans in the billing section of your <a href="${base}user-settings/">user settings</a>.</p>`,
      '/b/': `<p>See the <a href="${base}api/rest/#pagination">pagination section of the reference</a>.</p>`,
      '/c/': `<p>The <a href="${base}api/rest/">pagination section of the reference</a> lists them.</p>`,
      '/d/': `<p>It shows in the step's <strong>Destinations</strong> section in the <a href="${base}inspector/">inspector</a>.</p>`,
    };
    const headings = { '/user-settings/': ['API key'], '/api/rest/': ['Pagination'], '/inspector/': ['Logs'] };
    expect(sectionPointersWithoutSection(pages, headings, base)).toEqual([
      '/a/: "Change plans in the billing section of your user settings." names a part of /user-settings/ that the page does not have',
      '/c/: "The pagination section of the reference lists them." names a section of /api/rest/ but links the page',
    ]);
  });

  it('follow "like this" with what they show', () => {
    expect(examplesPromisedButMissing(fragments)).toEqual([]);
    expect(
      examplesPromisedButMissing({
        '/a/': '<p>It looks like this:</p>\n<div class="code-group"></div>',
        '/b/': '<pre><code>x</code></pre>\n<p>Run a small relay like this on your backend.</p>',
        '/c/': '<p>Keep a workflow like this around as a request bin.</p>',
      }),
    ).toEqual(['/b/: "Run a small relay like this on your backend." promises an example that does not follow']);
  });

  it('say what a reader can do rather than what the documentation does not publish', () => {
    expect(unpublishedRemarks(fragments)).toEqual([]);
    expect(
      unpublishedRemarks({
        '/a/': '<p>The documentation publishes no retention figure for source logs. Ask the team.</p>',
        '/b/': '<p>Three limits have no figure here, because none is published for every plan.</p>',
        '/c/': '<p>The settings page shows the value in effect.</p>',
      }),
    ).toEqual([
      '/a/: "The documentation publishes no retention figure for source logs."',
      '/b/: "Three limits have no figure here, because none is published for every plan."',
    ]);
  });
});
