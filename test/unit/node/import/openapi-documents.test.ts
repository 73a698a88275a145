import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importSite } from '../../../../src/node/import/import-site';
import { buildTree, messages, projectRoot } from '../../../helpers/tree';

const SPEC = `openapi: 3.0.3
info: { title: Widgets API, version: "1" }
paths:
  /widgets:
    get:
      operationId: listWidgets
      tags: [Widgets]
      summary: List widgets
      responses:
        "200": { description: The widgets. }
`;

describe('npm run import of a site with an OpenAPI document in its public folder', () => {
  it('names the document in _site.yaml, so that the new site has its reference pages', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-import-openapi-'));
    const source = path.join(root, 'old');
    await cp(path.join(projectRoot, 'test/fixtures/vitepress'), source, { recursive: true });
    await mkdir(path.join(source, 'public/specs'), { recursive: true });
    await writeFile(path.join(source, 'public/specs/widgets.yaml'), SPEC);
    // YAML and JSON that are not OpenAPI stay plain public files.
    await writeFile(path.join(source, 'public/data.yaml'), 'openapi_like: false\n');
    await writeFile(path.join(source, 'public/swagger.json'), '{ "swagger": "2.0" }');
    const result = await importSite({ source, out: path.join(root, 'content') });
    const site = parse(await readFile(path.join(root, 'content/_site.yaml'), 'utf8')) as Record<string, unknown>;
    expect(site['apiReference']).toEqual([{ spec: 'specs/widgets.yaml', route: '/api-reference/' }]);
    expect(result.report.render('old', 'VitePress', 3)).toContain(
      'the OpenAPI document became the API reference pages under /api-reference/',
    );
    const built = await buildTree(root);
    expect(messages(built)).toEqual([]);
    const html = await readFile(path.join(root, 'dist/api-reference/widgets/index.html'), 'utf8');
    expect(html).toContain('<h2 id="listWidgets" tabindex="-1">');
    expect(existsSync(path.join(root, 'dist/api-reference/index.html'))).toBe(true);
  }, 60_000);

  it('carries over a document the old config names, from a folder the import does not copy', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-import-openapi-named-'));
    const source = path.join(root, 'old');
    await cp(path.join(projectRoot, 'test/fixtures/vitepress'), source, { recursive: true });
    // A reference plugin's option, as such plugins take it: a path from the config's folder.
    await mkdir(path.join(source, '.vitepress/api'), { recursive: true });
    await writeFile(path.join(source, '.vitepress/api/widgets.yaml'), SPEC);
    const config = path.join(source, '.vitepress/config.mts');
    const text = await readFile(config, 'utf8');
    await writeFile(
      config,
      text.replace(
        "functionPayloadLimit: '6MB',",
        "functionPayloadLimit: '6MB',\n    openapi: { spec: './api/widgets.yaml' },",
      ),
    );
    const result = await importSite({ source, out: path.join(root, 'content') });
    const site = parse(await readFile(path.join(root, 'content/_site.yaml'), 'utf8')) as Record<string, unknown>;
    expect(site['apiReference']).toEqual([{ spec: 'api/widgets.yaml', route: '/api-reference/' }]);
    expect(result.report.render('old', 'VitePress', 3)).toContain(
      'the OpenAPI document the config names (api/widgets.yaml) became the API reference pages under /api-reference/',
    );
    const built = await buildTree(root);
    expect(messages(built)).toEqual([]);
    const html = await readFile(path.join(root, 'dist/api-reference/widgets/index.html'), 'utf8');
    expect(html).toContain('<h2 id="listWidgets" tabindex="-1">');
  }, 60_000);
});
