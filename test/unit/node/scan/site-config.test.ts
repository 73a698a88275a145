import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, DiagnosticList } from '../../../../src/node/diagnostics';
import { readSiteConfig } from '../../../../src/node/scan/site-config';
import { ALIAS_BOMB } from '../../../helpers/alias-bomb';

async function read(yaml: string, strict = true) {
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-config-'));
  await writeFile(path.join(dir, '_site.yaml'), yaml);
  const diagnostics = new DiagnosticList(strict);
  const site = await readSiteConfig(dir, diagnostics);
  return { ...site, messages: diagnostics.sorted().map(formatDiagnostic) };
}

describe('_site.yaml', () => {
  it('reports an unknown key at its own line, however far down the file it is', async () => {
    const yaml = 'title: T\nbase: /docs/\nconstants:\n  LIMIT: 10\nlang: en-US\nfeedbak: true\n';
    const { messages, valid } = await read(yaml);
    expect(messages).toEqual(['_site.yaml:6:1 unknown key "feedbak" in _site.yaml']);
    expect(valid).toBe(false);
  });

  it('reports an unknown key inside a list entry at that key', async () => {
    const yaml = 'title: T\nversions:\n  - text: v1\n    link: /v1/\n    colour: red\n';
    expect((await read(yaml)).messages).toEqual(['_site.yaml:5:5 unknown key "colour" in "versions.0"']);
  });

  it('names the first alias of an alias bomb instead of failing without a file', async () => {
    const started = performance.now();
    const { messages, valid } = await read(`title: T\n${ALIAS_BOMB}\n`);
    expect(messages).toEqual([
      '_site.yaml:3:8 YAML aliases (*name) here expand to too many values: write the values out',
    ]);
    expect(valid).toBe(false);
    // The library stops expanding early; nothing here grows with the bomb's full size.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('is an error that stops even a --no-strict build: the pages depend on it', async () => {
    const { messages, valid } = await read('title: T\nbogus: 1\n', false);
    expect(messages).toEqual(['_site.yaml:2:1 unknown key "bogus" in _site.yaml']);
    expect(valid).toBe(false);
  });

  it('reports a wrong apiReference entry at its line: a spec that is not YAML or JSON, a route without "/"', async () => {
    const yaml = 'title: T\napiReference:\n  - spec: api/openapi.txt\n    route: /api/reference\n';
    expect((await read(yaml)).messages).toEqual([
      '_site.yaml:3:11 "apiReference.0.spec" must be a .yaml, .yml or .json file in the content folder',
      '_site.yaml:4:12 "apiReference.0.route" must be a route such as /api/reference/',
    ]);
    const unknown = await read('title: T\napiReference:\n  - { spec: api/openapi.yaml, route: /api/, title: X }\n');
    expect(unknown.messages).toEqual(['_site.yaml:3:45 unknown key "title" in "apiReference.0"']);
  });

  it('is valid when it has no problem', async () => {
    const { messages, valid, config } = await read('title: T\nconstants:\n  LIMIT: 10\n');
    expect(messages).toEqual([]);
    expect(valid).toBe(true);
    expect(config.constants).toEqual({ LIMIT: '10' });
  });
});
