import { readFileSync } from 'node:fs';
import { chmod, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureNginx, startNginx, type RunningNginx } from '../e2e/nginx';
import { projectRoot } from '../helpers/tree';
import { rawGet, rawRequest, type RawAnswer } from './raw-http';

/**
 * Hostile requests over real HTTP, against both servers the site ships with: the preview server the global
 * setup started (src/node/serve) and nginx with deploy/nginx.conf, started here over the same dist/. Every
 * answer must be a clean 4xx (never a 5xx, never a dropped connection), no byte from outside dist/ may ever
 * come back, and the server must keep answering afterwards. The global setup plants a marker file next to
 * dist/, reachable only by stepping out of it.
 */
const distDir = inject('distDir');
const outside = inject('outsideFile');
const preview = inject('servers')[0];
if (!preview) throw new Error('no server was started by the global setup');

let nginx: RunningNginx | undefined;
beforeAll(async () => {
  // nginx runs its workers as an unprivileged user; mkdtemp made the build folder private. The marker file
  // becomes readable too, so a traversal that reached it would show.
  await chmod(path.dirname(distDir), 0o755);
  await chmod(outside.path, 0o644);
  const template = await readFile(path.join(projectRoot, 'deploy/nginx.conf'), 'utf8');
  nginx = await startNginx({ nginx: ensureNginx(), template, distDir });
});
afterAll(async () => {
  await nginx?.stop();
});

const SERVERS = [
  { name: 'preview', url: () => preview.url },
  {
    name: 'nginx',
    url: () => {
      if (!nginx) throw new Error('nginx did not start');
      return nginx.url;
    },
  },
];

const name = path.basename(outside.path);

/** Nothing from outside dist/: the marker, the project's package.json, the system's password file. */
function expectNoLeak(answer: RawAnswer): void {
  expect(answer.raw).not.toContain(outside.marker);
  expect(answer.raw).not.toContain('"name": "platform-docs"');
  expect(answer.raw).not.toMatch(/root:[^:\n]*:0:0:/);
}

/** A clean refusal: a status line with one of the allowed 4xx codes, never a 5xx or a dropped connection. */
function expectRefused(answer: RawAnswer, allowed: number[]): void {
  expect(answer.status, answer.raw.slice(0, 200)).toBeGreaterThan(0);
  expect(answer.status, answer.raw.slice(0, 200)).toBeLessThan(500);
  expect(allowed, `status ${answer.status}`).toContain(answer.status);
  expectNoLeak(answer);
}

describe.each(SERVERS)('hostile requests to $name', (server) => {
  const alive = async () => {
    const answer = await rawGet(server.url(), '/docs/limits/');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<title>Limits | Pipedream Docs</title>');
  };

  describe('path traversal', () => {
    // Each goes on the wire exactly as written: plain, percent-encoded, double-encoded, backslashes,
    // overlong UTF-8, NUL bytes, and the classic nginx alias slip (`/docs../`).
    const attempts = [
      `/docs/../${name}`,
      '/docs/../package.json',
      '/docs/../../package.json',
      `/docs/assets/../../${name}`,
      `/docs//../${name}`,
      '/docs/../../../../../../../../etc/passwd',
      `/docs/%2e%2e/${name}`,
      `/docs/%2E%2E/${name}`,
      '/docs/%2e%2e/%2e%2e/etc/passwd',
      '/docs/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      `/docs/.%2e/${name}`,
      `/docs/%2e./${name}`,
      `/docs/..%2f${name}`,
      '/docs/..%2fpackage.json',
      `/docs/%2e%2e%2f${name}`,
      '/docs/%2e%2e%2f%2e%2e%2fpackage.json',
      `/docs/assets/js/..%2f..%2f..%2f${name}`,
      `/docs/%252e%252e/${name}`,
      `/docs/%252e%252e%252f${name}`,
      '/docs/%252e%252e/',
      `/docs/..%252f${name}`,
      `/docs/..\\${name}`,
      '/docs/..\\..\\package.json',
      `/docs/..%5c${name}`,
      '/docs/..%5c..%5cpackage.json',
      `/docs/%2e%2e%5c${name}`,
      `/docs/%c0%ae%c0%ae/${name}`,
      `/docs/%c0%ae%c0%ae%c0%af${name}`,
      `/docs/%u002e%u002e/${name}`,
      `/docs/....//${name}`,
      `/docs/..;/${name}`,
      '/docs/%00',
      `/docs/%00/../../${name}`,
      '/docs/limits%00.html',
      `/docs/assets/..%00/${name}`,
      `/docs../${name}`,
      `/docs..%2f${name}`,
      '/docs../package.json',
    ];
    it.each(attempts)('GET %s is refused without a byte from outside dist/', async (attempt) => {
      expectRefused(await rawGet(server.url(), attempt), [400, 404]);
    });

    it.each(attempts.slice(0, 8))('HEAD %s is refused too', async (attempt) => {
      const answer = await rawGet(server.url(), attempt, 'HEAD');
      expectRefused(answer, [400, 404]);
      expect(answer.body).toBe('');
    });

    // Targets a URL library would rewrite or refuse before sending.
    it.each([
      ['no leading slash', `../${name}`],
      ['no leading slash into the site', `docs/../../${name}`],
      ['absolute form', `http://127.0.0.1/docs/../${name}`],
      ['absolute form, encoded', `http://127.0.0.1/docs/%2e%2e/${name}`],
      ['a raw NUL byte', `/docs/\0/../${name}`],
      ['a raw NUL byte after a page', '/docs/limits/\0'],
      ['a raw backslash at the start', `\\..\\${name}`],
      ['an asterisk', '*'],
    ])('a request target with %s is refused', async (_kind, target) => {
      expectRefused(await rawGet(server.url(), target), [400, 404]);
    });

    it.each(['/docs/.env', '/docs/.git/config', '/docs/assets/.hidden', '/docs/%2eenv', `/docs/.${name}`])(
      'the dot file %s is never served',
      async (target) => {
        expectRefused(await rawGet(server.url(), target), [400, 404]);
      },
    );

    it('leaves the server answering', alive);
  });

  describe('URLs that are too long or malformed', () => {
    it('refuses a 10 KB URL with 414', async () => {
      expectRefused(await rawGet(server.url(), `/docs/${'a'.repeat(10 * 1024)}`), [414]);
      await alive();
    });

    it('refuses a 10 KB query string with 414', async () => {
      expectRefused(await rawGet(server.url(), `/docs/limits/?q=${'%3c'.repeat(3500)}`), [414]);
    });

    it('refuses a 100 KB URL (over the header limit) with 414 or 431', async () => {
      expectRefused(await rawGet(server.url(), `/docs/${'../'.repeat(34 * 1024)}${name}`), [400, 414, 431]);
      await alive();
    });

    it('refuses a 20 KB header with 400 or 431', async () => {
      const answer = await rawGet(server.url(), '/docs/limits/', 'GET', `Cookie: c=${'x'.repeat(20 * 1024)}\r\n`);
      expectRefused(answer, [400, 431]);
    });

    it.each([
      ['a bad percent escape', '/docs/%'],
      ['a truncated percent escape', '/docs/limits%2'],
      ['invalid UTF-8', '/docs/%ff%fe/'],
      ['a lone surrogate', '/docs/%ed%a0%80/'],
    ])('answers %s with 400 or 404', async (_kind, target) => {
      expectRefused(await rawGet(server.url(), target), [400, 404]);
    });

    // These ask for a real page in a broken way: a server may refuse them or read past the flaw (nginx skips
    // a header line without a colon; Node reads a request line without a version as HTTP/0.9) and serve the
    // page. Either is fine; a 5xx, a leak or a server that stops answering is not.
    it.each([
      ['garbage', 'GARBAGE\r\n\r\n'],
      ['binary noise', Buffer.from([0, 1, 2, 3, 255, 254, 13, 10, 13, 10])],
      ['a request line without a version', 'GET /docs/limits/\r\n\r\n'],
      ['HTTP/1.1 without a Host', 'GET /docs/limits/ HTTP/1.1\r\nConnection: close\r\n\r\n'],
      ['a space inside the path', 'GET /docs/lim its/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
      ['a header without a colon', 'GET /docs/limits/ HTTP/1.1\r\nHost: x\r\nnonsense\r\nConnection: close\r\n\r\n'],
      [
        'a duplicate Content-Length',
        'GET /docs/limits/ HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 5\r\nConnection: close\r\n\r\n',
      ],
    ])('answers %s without a 5xx', async (_kind, bytes) => {
      const answer = await rawRequest(server.url(), bytes);
      // A connection closed without a status line (status 0) is how both servers end HTTP/0.9 noise.
      expect(answer.status, answer.raw.slice(0, 200)).toBeLessThan(500);
      expect([0, 200, 400, 404, 405]).toContain(answer.status);
      expectNoLeak(answer);
      await alive();
    });

    it('answers an unknown HTTP version with 400 or 505', async () => {
      const answer = await rawRequest(server.url(), 'GET /docs/limits/ HTTP/9.9\r\nHost: x\r\n\r\n');
      // 505 is the one 5xx that reports no server fault: RFC 9110 §15.6.6 makes it the answer to a major
      // version the server does not speak, and nginx sends it. Node's parser refuses with 400.
      expect([400, 505]).toContain(answer.status);
      expectNoLeak(answer);
      await alive();
    });
  });

  describe('byte ranges', () => {
    // The page as it is on disk: every range answer is checked against its bytes.
    const page = () => readFileSync(path.join(distDir, 'limits/index.html'));
    const ranged = (range: string, method = 'GET') =>
      rawGet(server.url(), '/docs/limits/', method, `Range: ${range}\r\n`);

    it('answers a suffix range with the last bytes of the file', async () => {
      const file = page();
      const answer = await ranged('bytes=-100');
      expect(answer.status).toBe(206);
      expect(answer.headers['content-range']).toBe(`bytes ${file.length - 100}-${file.length - 1}/${file.length}`);
      expect(Buffer.from(answer.body, 'latin1')).toEqual(file.subarray(file.length - 100));
    });

    it('answers a suffix longer than the file with the whole file', async () => {
      const file = page();
      const answer = await ranged(`bytes=-${file.length + 1000}`);
      expect(answer.status).toBe(206);
      expect(answer.headers['content-range']).toBe(`bytes 0-${file.length - 1}/${file.length}`);
      expect(Buffer.from(answer.body, 'latin1')).toEqual(file);
    });

    // A range counts bytes of what is sent: a 206 of compressed bytes would name the wrong ones. nginx
    // compresses and answers 200 instead, which is allowed too.
    it('sends a range as it is on disk, or the whole page, when the client also accepts gzip', async () => {
      const file = page();
      const answer = await ranged(`bytes=0-1999\r\nAccept-Encoding: gzip`);
      expect([200, 206]).toContain(answer.status);
      if (answer.status === 206) {
        expect(answer.headers['content-encoding']).toBeUndefined();
        expect(answer.headers['content-range']).toBe(`bytes 0-1999/${file.length}`);
        expect(Buffer.from(answer.body, 'latin1')).toEqual(file.subarray(0, 2000));
      } else expect(answer.headers['content-range']).toBeUndefined();
      if (server.name === 'preview') expect(answer.status).toBe(206);
    });

    it('answers bytes=0-0 with the first byte alone', async () => {
      const file = page();
      const answer = await ranged('bytes=0-0');
      expect(answer.status).toBe(206);
      expect(answer.headers['content-range']).toBe(`bytes 0-0/${file.length}`);
      expect(Buffer.from(answer.body, 'latin1')).toEqual(file.subarray(0, 1));
    });

    it('answers a range inside the file with exactly its bytes', async () => {
      const file = page();
      const answer = await ranged('bytes=5-14');
      expect(answer.status).toBe(206);
      expect(answer.headers['content-range']).toBe(`bytes 5-14/${file.length}`);
      expect(Buffer.from(answer.body, 'latin1')).toEqual(file.subarray(5, 15));
    });

    it.each(['bytes=5-1', 'bytes=999999999-', 'bytes=99999999999999999999-', 'bytes=-0'])(
      'answers the unsatisfiable %s with 416 and the size, and keeps serving',
      async (range) => {
        const answer = await ranged(range);
        expect(answer.status, answer.raw.slice(0, 300)).toBe(416);
        expect(answer.headers['content-range']).toBe(`bytes */${page().length}`);
        await alive();
      },
    );

    it('answers a range past the end with the bytes there are (206), or 416', async () => {
      const file = page();
      const answer = await ranged('bytes=0-99999999999999999999');
      if (answer.status === 416) expect(answer.headers['content-range']).toBe(`bytes */${file.length}`);
      else {
        expect(answer.status).toBe(206);
        expect(answer.headers['content-range']).toBe(`bytes 0-${file.length - 1}/${file.length}`);
        expect(Buffer.from(answer.body, 'latin1')).toEqual(file);
      }
      await alive();
    });

    it('answers HEAD with a range with headers only, and keeps serving', async () => {
      for (const range of ['bytes=5-1', 'bytes=0-0', 'bytes=-100', 'bytes=0-99999999999999999999']) {
        const answer = await ranged(range, 'HEAD');
        expect([200, 206, 416], `${range}: ${answer.raw.slice(0, 300)}`).toContain(answer.status);
        expect(answer.body).toBe('');
      }
      await alive();
    });

    it('answers several ranges with the whole file, or with each of them', async () => {
      const file = page();
      const answer = await ranged('bytes=0-1,5-6');
      expect([200, 206]).toContain(answer.status);
      if (answer.status === 200) expect(Buffer.from(answer.body, 'latin1')).toEqual(file);
      else expect(answer.headers['content-type']).toMatch(/^multipart\/byteranges/);
    });

    it.each(['bytes=abc', 'bytes=', 'pages=0-1', 'bytes=--5', 'bytes=1-2-3'])(
      'reads the malformed %s as no range at all, or refuses it',
      async (range) => {
        const answer = await ranged(range);
        expect([200, 416], answer.raw.slice(0, 300)).toContain(answer.status);
        if (answer.status === 200) expect(Buffer.from(answer.body, 'latin1')).toEqual(page());
        await alive();
      },
    );
  });

  describe('characters a header cannot carry', () => {
    // A redirect puts the path into the Location header: it must go there percent-encoded, and a control
    // character in a path is refused before anything is looked up.
    it.each([
      ['a non-ASCII character', '/docs/%E2%82%AC/index.html', '/docs/%E2%82%AC/'],
      ['a control character', '/docs/%01/index.html', undefined],
      ['CR LF', '/docs/%0D%0A/index.html', undefined],
      ['CR LF and a header after it', '/docs/limits%0D%0ASet-Cookie:%20x=1/index.html', undefined],
      ['a non-ASCII character and no slash', '/docs/%C3%A9t%C3%A9', undefined],
      // nginx's rewrite puts the decoded path back as it is, so its `?` starts a query string there.
      ['a question mark', '/docs/a%3Fb/index.html', server.name === 'preview' ? '/docs/a%3Fb/' : undefined],
    ])('a path with %s is answered cleanly, and the server keeps serving', async (_kind, target, location) => {
      const answer = await rawGet(server.url(), target);
      expect([301, 400, 404], answer.raw.slice(0, 300)).toContain(answer.status);
      expect(answer.headers['set-cookie']).toBeUndefined();
      if (answer.status === 301) {
        expect(answer.headers['location']).toMatch(/^[\x21-\x7e]+$/);
        if (location) expect(answer.headers['location']).toBe(location);
      }
      await alive();
    });
  });

  describe('methods', () => {
    it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE'])('%s gets 405 with Allow', async (method) => {
      const answer = await rawGet(server.url(), '/docs/limits/', method, 'Content-Length: 0\r\n');
      expectRefused(answer, [405]);
      expect(answer.headers['allow']).toBe('GET, HEAD, OPTIONS');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    });

    it('POST with a body gets 405 (or 413 for the size) and never reaches a file', async () => {
      const body = 'x'.repeat(64 * 1024);
      const { host } = new URL(server.url());
      const answer = await rawRequest(
        server.url(),
        `POST /docs/../${name} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expectRefused(answer, [400, 405, 413]);
    });

    it('CONNECT gets a clean refusal', async () => {
      expectRefused(await rawGet(server.url(), '127.0.0.1:22', 'CONNECT'), [400, 405]);
      await alive();
    });

    it('a WebSocket upgrade is served as a plain GET or refused, never left hanging', async () => {
      const { host } = new URL(server.url());
      // The request stays open-ended on purpose (no Connection: close): an upgrade nobody accepts must still
      // get an answer, so the read ends when a server closes or when the answer is complete.
      const answer = await rawRequest(
        server.url(),
        `GET /docs/limits/ HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        5_000,
      );
      expect([200, 400, 405]).toContain(answer.status);
      await alive();
    });

    it.each(['FOO', 'get', 'G3T', 'PROPFIND', 'BREW'])('the unknown method %s gets 400 or 405', async (method) => {
      expectRefused(await rawGet(server.url(), '/docs/limits/', method), [400, 405]);
    });

    it('answers OPTIONS with 204 and Allow', async () => {
      const answer = await rawGet(server.url(), '/docs/limits/', 'OPTIONS');
      expect(answer.status).toBe(204);
      expect(answer.headers['allow']).toBe('GET, HEAD, OPTIONS');
    });

    it('answers HEAD with the headers of GET and no body, for a page and for a 404', async () => {
      const page = await rawGet(server.url(), '/docs/limits/', 'HEAD');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toBe('');
      const missing = await rawGet(server.url(), '/docs/nope/', 'HEAD');
      expect(missing.status).toBe(404);
      expect(missing.body).toBe('');
    });

    it('sends no Allow header on ordinary responses', async () => {
      expect((await rawGet(server.url(), '/docs/limits/')).headers['allow']).toBeUndefined();
    });

    it('leaves the server answering', alive);
  });

  it('keeps answering while 200 connections hang half-way through their request', async () => {
    const { hostname, port } = new URL(server.url());
    const sockets = await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const socket = net.connect({ host: hostname, port: Number(port) }, () => {
              socket.write('GET /docs/limits/ HTTP/1.1\r\nHost: x\r\nX-Slow: ');
              resolve(socket);
            });
            socket.on('error', reject);
          }),
      ),
    );
    try {
      await alive();
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
