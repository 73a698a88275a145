import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../../../src/shared/types';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

const SPEC = `openapi: 3.1.0
info:
  title: Accounts API
  version: "1"
  description: Reads the account that owns the key.
servers:
  - url: "{{ API_BASE }}"
tags:
  - name: Users
paths:
  /users/me:
    get:
      operationId: getCurrentUser
      tags: [Users]
      summary: Get the current user
      description: Answers with the key's user; see the [guide](/guide/).
      responses:
        "200":
          description: The user.
          content:
            application/json:
              schema:
                type: object
                properties:
                  name: { type: string, example: ada }
`;

function site(extra = ''): string {
  return `title: Test Docs
siteUrl: https://docs.example.com
sidebar:
  - text: Guide
    items: [/, /guide/]
  - text: API
    items: [/api/reference/]
apiReference:
  - { spec: api/openapi.yaml, route: /api/reference/ }
${extra}constants:
  API_BASE: https://api.example.com/v1
`;
}

const PAGES = {
  'README.md': '# Home\n\nWelcome.\n',
  'guide/README.md': '# Guide\n\nCall [the current user](/api/reference/users/#getCurrentUser) first.\n',
};

describe('API reference pages in a build', () => {
  it('are pages like the others: prerendered, in the sidebar and llms.txt, with a twin and search entries', async () => {
    const root = await makeTree({ '_site.yaml': site(), 'api/openapi.yaml': SPEC, ...PAGES });
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    const dist = path.join(root, 'dist');
    const html = readFileSync(path.join(dist, 'api/reference/users/index.html'), 'utf8');
    expect(html).toContain('<h2 id="getCurrentUser" tabindex="-1">');
    expect(html).toContain('<details class="container details"><summary>200: The user. (application/json)</summary>');
    // The code group's blocks are highlighted at build time, like any page's.
    expect(html).toMatch(/<pre class="shiki"[^>]*><code><span class="line c-[^"]+"><span class="c-[^"]+">curl<\/span>/);
    const manifest = JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
    // The tag page follows the overview the sidebar lists, and previous/next follow the sidebar.
    expect(manifest.sidebar[1]?.items.map((item) => item.link)).toEqual(['/api/reference/', '/api/reference/users/']);
    const twin = readFileSync(path.join(dist, 'api/reference/users.md'), 'utf8');
    expect(twin).toContain('`GET /users/me`');
    expect(twin).toContain("curl -s 'https://api.example.com/v1/users/me'");
    expect(readFileSync(path.join(dist, 'llms.txt'), 'utf8')).toContain(
      '- [Users](https://docs.example.com/docs/api/reference/users/)',
    );
    const search = readdirSync(path.join(root, 'manifest/search'))
      .map((file) => readFileSync(path.join(root, 'manifest/search', file), 'utf8'))
      .join('\n');
    expect(search).toContain('getcurrentuser');
  });

  it('makes the pages again when the document, or a file its $refs lead to, changes', async () => {
    const split = SPEC.replace(
      '              schema:\n                type: object\n                properties:\n                  name: { type: string, example: ada }\n',
      '              schema:\n                $ref: "schemas/user.yaml"\n',
    );
    const root = await makeTree({
      '_site.yaml': site(),
      'api/openapi.yaml': split,
      'api/schemas/user.yaml': 'type: object\nproperties:\n  name: { type: string, example: ada }\n',
      ...PAGES,
    });
    const page = () => readFileSync(path.join(root, 'dist/api/reference/users/index.html'), 'utf8');
    expect(messages(await buildTree(root))).toEqual([]);
    expect(page()).toContain('&quot;ada&quot;');
    await writeFile(
      path.join(root, 'content/api/schemas/user.yaml'),
      'type: object\nproperties:\n  name: { type: string, example: grace }\n',
    );
    expect(messages(await buildTree(root))).toEqual([]);
    expect(page()).toContain('&quot;grace&quot;');
    await writeFile(path.join(root, 'content/api/openapi.yaml'), split.replace('Get the current user', 'Who am I'));
    expect(messages(await buildTree(root))).toEqual([]);
    expect(page()).toContain('Who am I<a class="header-anchor" href="#getCurrentUser"');
  });

  it('are made from the document of the content folder built, when another folder shared the cache', async () => {
    const first = await makeTree({ '_site.yaml': site(), 'api/openapi.yaml': SPEC, ...PAGES });
    expect(messages(await buildTree(first))).toEqual([]);
    const second = await makeTree({
      '_site.yaml': site(),
      'api/openapi.yaml': SPEC.replace('Get the current user', 'Who am I'),
      ...PAGES,
    });
    const cacheDir = path.join(first, '.cache');
    expect(messages(await buildTree(second, { cacheDir }))).toEqual([]);
    const page = readFileSync(path.join(second, 'dist/api/reference/users/index.html'), 'utf8');
    expect(page).toContain('Who am I<a class="header-anchor" href="#getCurrentUser"');
    await writeFile(path.join(second, 'content/api/openapi.yaml'), SPEC.replace('type: string', 'type: strnig'));
    const third = await buildTree(second, { cacheDir });
    expect(messages(third)[0]).toMatch(
      /^api\/openapi\.yaml:25:\d+ invalid OpenAPI document: .*name\.type" must be equal/,
    );
  });

  it('name the document as their source: the record, the edit link and the date are those of the document', async () => {
    const root = await makeTree({
      '_site.yaml': site('editLink: { pattern: "https://example.com/edit/:path" }\nlastUpdated: true\n'),
      'api/openapi.yaml': SPEC,
      ...PAGES,
    });
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: root,
        env: { ...process.env, GIT_COMMITTER_DATE: '2025-03-04T05:06:07Z', GIT_AUTHOR_DATE: '2025-03-04T05:06:07Z' },
      });
    git('init', '-q');
    git('-c', 'user.name=Writer', '-c', 'user.email=w@example.com', 'add', '.');
    git('-c', 'user.name=Writer', '-c', 'user.email=w@example.com', 'commit', '-q', '-m', 'Reference');
    expect(messages(await buildTree(root))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
    for (const page of manifest.pages) expect(existsSync(path.join(root, 'content', page.relativePath))).toBe(true);
    const users = manifest.pages.find((page) => page.path === '/api/reference/users/');
    expect(users).toMatchObject({
      relativePath: 'api/openapi.yaml',
      editLink: 'https://example.com/edit/api/openapi.yaml',
      lastUpdated: '2025-03-04T05:06:07+00:00',
    });
  });

  it('fails on a broken document with its file and line, and checks links to operations like any anchor', async () => {
    const broken = SPEC.replace('          description: The user.\n', '');
    const root = await makeTree({
      '_site.yaml': site(
        '  - { spec: api/missing.yaml, route: /api/missing/ }\n  - { spec: api/broken.yaml, route: /api/broken/ }\n',
      ),
      'api/openapi.yaml': SPEC.replace('[guide](/guide/)', '[guide](/guides/)'),
      'api/broken.yaml': broken,
      ...PAGES,
      'guide/README.md': '# Guide\n\nCall [the current user](/api/reference/users/#getUser) first.\n',
    });
    const result = await buildTree(root);
    expect(result.ok).toBe(false);
    expect(messages(result)).toEqual([
      '_site.yaml:10:13 OpenAPI document "api/missing.yaml" does not exist',
      `api/broken.yaml:19:11 invalid OpenAPI document: "paths./users/me.get.responses.200" must have required property 'description'`,
      // A broken link in a description is the document's, at its line, not the generated page's.
      expect.stringMatching(
        /^api\/openapi\.yaml:16:65 broken link "\/guides\/": no page at \/guides\/.* \(in the reference page made from it, api\/reference\/users\.md\)$/,
      ),
      expect.stringMatching(
        /^guide\/README\.md:3:6 broken anchor "\/api\/reference\/users\/#getUser": \/api\/reference\/users\/ has no heading #getUser/,
      ),
    ]);
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });

  it('reports a misspelt 3.1 schema type once, and says once that links into its reference were not checked', async () => {
    const links = Array.from({ length: 30 }, (_, i) => `[user ${i}](/api/reference/users/#getCurrentUser)`);
    const root = await makeTree({
      '_site.yaml': site(),
      'api/openapi.yaml': SPEC.replace('name: { type: string, example: ada }', 'name: { type: strnig }'),
      ...PAGES,
      'guide/README.md': `# Guide\n\n${links.join('\n\n')}\n`,
    });
    const result = await buildTree(root);
    expect(result.ok).toBe(false);
    expect(messages(result)).toEqual([
      'api/openapi.yaml:25:33 invalid OpenAPI document: "paths./users/me.get.responses.200.content.application/json.schema.properties.name.type" must be equal to one of the allowed values: "array", "boolean", "integer", "null", "number", "object", "string"',
      'api/openapi.yaml:25:33 warning: 31 links and sidebar entries into /api/reference/ not checked: its pages are made once this is fixed',
    ]);
  });
});
