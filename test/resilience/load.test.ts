import { readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import autocannon, { type Request } from 'autocannon';
import { describe, expect, inject, it } from 'vitest';
import { rawGet } from './raw-http';
import { SUMMARIES } from './summaries';

/**
 * A bounded load run with autocannon on 127.0.0.1 against the preview server of the global setup: 50
 * connections for 5 s over a mix of page HTML, page fragments, scripts, styles and not-found URLs, some
 * asking for gzip. Every answer must be the expected one (404 only where the URL is missing), with no
 * error or timeout, and the server must answer afterwards. Throughput and latency are printed and written
 * to test-results/load-summary.json for `npm run bench:resilience`; they are not asserted, since the machine
 * is shared and a busy neighbour slows it without anything being wrong.
 */
const server = inject('servers')[0];
if (!server) throw new Error('no server was started by the global setup');
const distDir = inject('distDir');

const LOAD = { connections: 50, seconds: 5 };

function built(folder: string, pattern: RegExp, count = 1): string[] {
  const names = readdirSync(path.join(distDir, folder)).filter((n) => pattern.test(n));
  if (names.length < count) throw new Error(`fewer than ${count} files matching ${pattern} in dist/${folder}`);
  return names.slice(0, count).map((n) => `/docs/${folder}/${n}`);
}

const GZIP = { 'accept-encoding': 'gzip' };

/** The mix, each with the status it must get. Each connection loops over the list in order. */
function mix(): { path: string; status: number; headers?: Record<string, string> }[] {
  const pages = ['/docs/', '/docs/limits/', '/docs/api/rest/', '/docs/workflows/steps/triggers/'];
  return [
    ...pages.map((p) => ({ path: p, status: 200 })),
    ...pages.slice(0, 2).map((p) => ({ path: p, status: 200, headers: GZIP })),
    ...built('assets/js', /^page\..+\.[0-9a-f]{8}\.html$/, 4).map((p) => ({ path: p, status: 200 })),
    ...built('assets/js', /^entry\.[A-Za-z0-9]{8}\.js$/).map((p) => ({ path: p, status: 200, headers: GZIP })),
    ...built('assets/css', /^app\.[0-9a-f]{8}\.css$/).map((p) => ({ path: p, status: 200 })),
    ...built('assets/js', /^manifest\.[0-9a-f]{8}\.json$/).map((p) => ({ path: p, status: 200, headers: GZIP })),
    { path: '/docs/version.json', status: 200 },
    { path: '/docs/no/such/page/', status: 404 },
    { path: '/docs/assets/js/missing.abcdef12.js', status: 404 },
    { path: '/docs/../package.json', status: 400 },
  ];
}

describe('the preview server under load', () => {
  it(`answers ${LOAD.connections} connections for ${LOAD.seconds} s without an error`, async () => {
    const unexpected = new Map<string, number>();
    const requests: Request[] = mix().map((entry) => ({
      method: 'GET',
      path: entry.path,
      headers: entry.headers ?? {},
      onResponse: (status) => {
        if (status !== entry.status) {
          const key = `${entry.path} → ${status}`;
          unexpected.set(key, (unexpected.get(key) ?? 0) + 1);
        }
      },
    }));
    const result = await autocannon({
      url: server.url,
      connections: LOAD.connections,
      duration: LOAD.seconds,
      // Generous: a shared 2-core machine may stall for a while; a stall is not a failure, a lost answer is.
      timeout: 30,
      requests,
    });
    const summary = {
      date: new Date().toISOString(),
      connections: LOAD.connections,
      seconds: LOAD.seconds,
      urls: requests.length,
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      latencyMaxMs: result.latency.max,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
      unexpected: Object.fromEntries(unexpected),
    };
    console.log(
      `load: ${summary.requests} requests in ${LOAD.seconds} s over ${LOAD.connections} connections, ` +
        `${summary.requestsPerSecond.toFixed(0)} requests/s, p50 ${summary.latencyP50Ms} ms, ` +
        `p99 ${summary.latencyP99Ms} ms, ${summary.errors} errors, ${summary.timeouts} timeouts, ` +
        `status codes ${JSON.stringify(summary.statusCodes)}`,
    );
    await mkdir(path.dirname(SUMMARIES.load), { recursive: true });
    await writeFile(SUMMARIES.load, `${JSON.stringify(summary, null, 2)}\n`);

    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result['5xx']).toBe(0);
    expect(Object.fromEntries(unexpected)).toEqual({});
    // Enough traffic that the run means something, even on a loaded machine.
    expect(result.requests.total).toBeGreaterThan(LOAD.connections * 10);

    const after = await rawGet(server.url, '/docs/limits/');
    expect(after.status).toBe(200);
  });
});
