import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { securityHeaders } from '../../src/node/output/headers';

/**
 * HTTP-level checks of the hosting rules (redirects, 404s, caching, compression, security headers) against
 * the server of this project: the preview server or nginx with deploy/nginx.conf. Hostile requests (path
 * traversal, malformed and oversized requests, methods) are in test/resilience/hostile-requests.test.ts, which
 * runs them against both servers.
 */
const server = inject('servers')[0];
if (!server) throw new Error('no server was started by the global setup');
const { hostname, port } = new URL(server.url);
const distDir = inject('distDir');

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw request: the path goes on the wire exactly as written (no client-side normalisation or encoding). */
function request(rawPath: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      { hostname, port, path: rawPath, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${rawPath} within 10 s`)));
    req.end();
  });
}

/** The first built file in dist/<folder> whose name matches. */
function builtFile(folder: string, pattern: RegExp): string {
  const name = readdirSync(path.join(distDir, folder)).find((n) => pattern.test(n));
  if (!name) throw new Error(`no file matching ${pattern} in dist/${folder}`);
  return `${folder}/${name}`;
}

describe(`hosting rules (${server.name})`, () => {
  describe('redirects', () => {
    it.each([
      ['/', '/docs/'],
      ['/docs', '/docs/'],
      ['/docs/limits', '/docs/limits/'],
      ['/docs/limits/index.html', '/docs/limits/'],
      ['/docs/index.html', '/docs/'],
      ['/docs/limits.html', '/docs/limits/'],
      ['/docs/cron', '/docs/workflows/steps/triggers/'],
      ['/docs/cron/', '/docs/workflows/steps/triggers/'],
      ['/docs/what-is-pipedream/', '/docs/'],
      ['/docs/what-is-pipedream', '/docs/'],
    ])('%s answers 301 to %s', async (from, to) => {
      const answer = await request(from);
      expect(answer.status).toBe(301);
      expect(answer.headers.location).toBe(to);
    });

    it('keep the query string', async () => {
      expect((await request('/?q=1')).headers.location).toBe('/docs/?q=1');
      expect((await request('/docs/limits?q=1')).headers.location).toBe('/docs/limits/?q=1');
      expect((await request('/docs/limits/index.html?q=1')).headers.location).toBe('/docs/limits/?q=1');
      expect((await request('/docs/cron?q=1')).headers.location).toBe('/docs/workflows/steps/triggers/?q=1');
    });

    it('follow every line of the redirect table the build wrote (dist/_redirects)', async () => {
      const lines = readFileSync(path.join(distDir, '_redirects'), 'utf8').trim().split('\n');
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines) {
        const [from = '', to] = line.split(/\s+/);
        const answer = await request(from);
        expect([from, answer.status, answer.headers.location]).toEqual([from, 301, to]);
      }
    });
  });

  describe('pages and the 404 page', () => {
    it('serves a page folder as HTML with status 200, and HEAD without a body', async () => {
      const answer = await request('/docs/limits/');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body.toString()).toContain('<title>Limits | Pipedream Docs</title>');
      const head = await request('/docs/limits/', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
    });

    it.each(['/docs/nope/', '/docs/nope', '/docs/nope.html', '/docs/404', '/docs/404/', '/docs/assets/', '/nope'])(
      '%s is the not-found page with status 404',
      async (pathname) => {
        const answer = await request(pathname);
        expect(answer.status).toBe(404);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.headers['cache-control']).toBe('no-cache');
        expect(answer.body.toString()).toContain('<title>Page not found | Pipedream Docs</title>');
      },
    );

    it('answers a missing hashed chunk with 404, never with a cacheable page', async () => {
      const answer = await request('/docs/assets/js/missing.abcdef12.js');
      expect(answer.status).toBe(404);
      expect(answer.headers['cache-control']).toBe('no-cache');
    });

    it('never serves dot files', async () => {
      expect((await request('/docs/.env')).status).toBe(404);
    });
  });

  describe('caching', () => {
    it.each([
      () => builtFile('assets/js', /^entry\.[A-Za-z0-9]{8}\.js$/),
      () => builtFile('assets/css', /^app\.[0-9a-f]{8}\.css$/),
      () => builtFile('assets/js', /^page\.limits\.[0-9a-f]{8}\.html$/),
      () => builtFile('assets/js', /^manifest\.[0-9a-f]{8}\.json$/),
    ])('hashed asset %# is immutable for a year', async (file) => {
      const answer = await request(`/docs/${file()}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('links the site icon as a hashed asset, kept by the browser: a tab asks for it at every page it shows', async () => {
      const page = (await request('/docs/limits/')).body.toString();
      const icon = /<link rel="icon" href="(\/docs\/assets\/favicon\.[0-9a-f]{8}\.svg)"/.exec(page)?.[1];
      expect(icon).toBeDefined();
      const answer = await request(icon ?? '');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it.each(['/docs/', '/docs/limits/', '/docs/version.json', '/docs/_redirects', '/docs/sitemap.xml'])(
      '%s is revalidated (no-cache)',
      async (pathname) => {
        const answer = await request(pathname);
        expect(answer.status).toBe(200);
        expect(answer.headers['cache-control']).toBe('no-cache');
      },
    );

    it('sends version.json as JSON and _redirects as text', async () => {
      const version = await request('/docs/version.json');
      expect(version.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(version.body.toString())).toHaveProperty('hash');
      expect((await request('/docs/_redirects')).headers['content-type']).toMatch(/^text\/plain/);
    });

    it('sends llms.txt and llms-full.txt as UTF-8 text and the markdown twins as markdown', async () => {
      for (const file of ['/docs/llms.txt', '/docs/llms-full.txt']) {
        const answer = await request(file);
        expect(answer.status, file).toBe(200);
        expect(answer.headers['content-type'], file).toBe('text/plain; charset=utf-8');
      }
      for (const file of ['/docs/limits.md', '/docs/index.md']) {
        const answer = await request(file);
        expect(answer.status, file).toBe(200);
        expect(answer.headers['content-type'], file).toBe('text/markdown; charset=utf-8');
      }
    });
  });

  describe('compression', () => {
    it('gzips JavaScript when the client asks, and only then', async () => {
      const file = builtFile('assets/js', /^entry\.[A-Za-z0-9]{8}\.js$/);
      const onDisk = readFileSync(path.join(distDir, file));
      const zipped = await request(`/docs/${file}`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(zipped.status).toBe(200);
      expect(zipped.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
      expect(zipped.body.length).toBeLessThan(onDisk.length);
      expect(gunzipSync(zipped.body).equals(onDisk)).toBe(true);
      const plain = await request(`/docs/${file}`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(onDisk)).toBe(true);
    });

    it('gzips HTML', async () => {
      const answer = await request('/docs/limits/', { headers: { 'Accept-Encoding': 'gzip' } });
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(answer.body).toString()).toContain('Limits');
    });
  });

  describe('security headers', () => {
    const expected = securityHeaders(false);
    it.each([
      ['200', '/docs/limits/'],
      ['200 asset', '/docs/version.json'],
      ['301', '/docs/cron'],
      ['301 to the slash', '/docs/limits'],
      ['404', '/docs/nope/'],
      ['404 asset', '/docs/assets/js/missing.abcdef12.js'],
    ])('are the ones of headers.ts on a %s response', async (_kind, pathname) => {
      const answer = await request(pathname);
      for (const [name, value] of Object.entries(expected)) {
        expect([name, answer.headers[name.toLowerCase()]]).toEqual([name, value]);
      }
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.headers['content-security-policy']).not.toContain('unsafe-inline');
    });
  });
});
