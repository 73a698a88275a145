import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerFailures } from '../../../../src/node/serve/failures';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A server whose handler fails in the ways `answerFailures` must contain; returns its URL and its log. */
async function failingServer(): Promise<{ url: string; log: string[] }> {
  const log: string[] = [];
  server = http.createServer(
    answerFailures(
      (req, res) => {
        if (req.url === '/throws') {
          res.setHeader('Location', '/elsewhere');
          throw new Error('a bug in the handler');
        }
        if (req.url === '/throws-mid-body') {
          res.writeHead(200, { 'Content-Length': '100' });
          res.write('part of it');
          throw new Error('a bug after the headers went out');
        }
        res.end('fine');
      },
      (message) => log.push(message),
    ),
  );
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

describe('a request that fails inside the server', () => {
  it('is answered 500 and logged, and the next request is served', async () => {
    const { url, log } = await failingServer();
    const failed = await fetch(`${url}/throws`, { redirect: 'manual' });
    expect([failed.status, failed.headers.get('location'), await failed.text()]).toEqual([
      500,
      null,
      'Internal server error',
    ]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^serve: GET "\/throws" failed: Error: a bug in the handler/);
    expect(await (await fetch(`${url}/`)).text()).toBe('fine');
  });

  it('cuts the connection when part of the answer was sent, rather than passing it for whole', async () => {
    const { url, log } = await failingServer();
    await expect(fetch(`${url}/throws-mid-body`).then((response) => response.text())).rejects.toThrow();
    expect(log).toHaveLength(1);
    expect(await (await fetch(`${url}/`)).text()).toBe('fine');
  });
});
