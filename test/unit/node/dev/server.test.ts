import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevServer, type DevServer } from '../../../../src/node/dev/server';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

/** `npm run dev` answers the site's requests with the preview server's handler: the same hostile requests. */
describe('the dev server, asked what killed it before', () => {
  let root = '';
  let dev: DevServer | undefined;
  let url = '';

  beforeAll(async () => {
    root = await makeTree({ 'README.md': '# Home\n\nHello.\n', 'limits.md': '# Limits\n\nThe limits of a plan.\n' });
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    dev = createDevServer({ distDir: path.join(root, 'dist'), base: '/docs/', liveScript: () => '' });
    await new Promise<void>((resolve) => dev?.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(dev.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await dev?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const get = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${url}${target}`, { headers, method, redirect: 'manual' });

  it('answers byte ranges, and refuses the unsatisfiable ones with 416', async () => {
    const page = readFileSync(path.join(root, 'dist/limits/index.html'));
    const last = await get('/docs/limits/', { Range: 'bytes=-10' });
    expect([last.status, last.headers.get('content-range')]).toEqual([
      206,
      `bytes ${page.length - 10}-${page.length - 1}/${page.length}`,
    ]);
    expect(Buffer.from(await last.arrayBuffer())).toEqual(page.subarray(page.length - 10));
    const first = await get('/docs/limits/', { Range: 'bytes=0-0' });
    expect([first.status, await first.text()]).toEqual([206, page.subarray(0, 1).toString()]);
    for (const method of ['GET', 'HEAD']) {
      const backwards = await get('/docs/limits/', { Range: 'bytes=5-1' }, method);
      expect([backwards.status, backwards.headers.get('content-range')]).toEqual([416, `bytes */${page.length}`]);
    }
  });

  it('percent-encodes the paths it redirects to, and refuses control characters', async () => {
    const euro = await get('/docs/%E2%82%AC/index.html');
    expect([euro.status, euro.headers.get('location')]).toEqual([301, '/docs/%E2%82%AC/']);
    expect((await get('/docs/%01/index.html')).status).toBe(400);
    expect((await get('/docs/%0D%0A/index.html')).status).toBe(400);
  });

  it("tells the tabs that the problems changed, and gives each page its own: not the site's thousands at every save", async () => {
    const events = await fetch(`${url}/__dev/events`);
    const reader = events.body!.getReader();
    const problem = (file: string, page: string | undefined, line: number) => ({
      severity: 'error' as const,
      file,
      line,
      column: 1,
      message: `broken link number ${line}`,
      ...(page && { page }),
    });
    const diagnostics = [
      ...Array.from({ length: 3000 }, (_, i) => problem('old.md', '/docs/old/', i + 1)),
      problem('limits.md', '/docs/limits/', 7),
      problem('_site.yaml', undefined, 2),
    ];
    dev?.broadcast({ type: 'problems', diagnostics, written: true });
    let stream = '';
    while (!stream.includes('"problems"')) stream += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(stream).toContain('data: {"type":"problems","errors":3002}');
    expect(stream.length).toBeLessThan(200);
    const limits = (await (await get('/__dev/problems?page=%2Fdocs%2Flimits%2F')).json()) as {
      diagnostics: { file: string }[];
      otherPages: number;
      written: boolean;
    };
    expect(limits.diagnostics.map((d) => d.file)).toEqual(['limits.md', '_site.yaml']);
    expect([limits.otherPages, limits.written]).toEqual([1, true]);
    dev?.broadcast({ type: 'problems', diagnostics: [], written: true });
    expect(await (await get('/__dev/problems?page=%2Fdocs%2Flimits%2F')).json()).toEqual({
      diagnostics: [],
      written: true,
      otherPages: 0,
    });
  });

  it('keeps serving', async () => {
    const home = await get('/docs/limits/');
    expect([home.status, (await home.text()).includes('The limits of a plan.')]).toEqual([200, true]);
  });
});
