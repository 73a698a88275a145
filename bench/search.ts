/**
 * Search figures: the size of the search index a build ships, and query latency in the real search
 * worker over a fixed list of realistic queries (typos included).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { newContext } from './browser';
import type { Figure } from './report';

/** Searches a reader might type, for both the real docs and the generated tree; the last ten have typos. */
export const QUERIES = [
  'webhook',
  'http trigger',
  'environment variables',
  'rate limit',
  'cron',
  'oauth',
  'data store',
  'npm package',
  'timeout',
  'memory limit',
  'python',
  'send email',
  'slack',
  'retry',
  'workflow errors',
  'custom domain',
  'access token',
  'pd deploy',
  'concurrency',
  'pricing credits',
  'sources',
  'destinations',
  'event history',
  'schedule',
  'api key',
  'dead-letter queue',
  'json body',
  'service account',
  'audit log',
  'pagination',
  'webhok',
  'enviroment variables',
  'authentcation',
  'concurency',
  'scheduel',
  'timout',
  'pyhton',
  'credentails',
  'ratelimit',
  'oauht',
];

export interface SearchIndexFile {
  file: string;
  text: string;
}

/** The search index a build wrote into dist/assets/js. */
export async function findSearchIndex(distDir: string): Promise<SearchIndexFile> {
  const dir = path.join(distDir, 'assets/js');
  const name = (await readdir(dir)).find((f) => /^search\.[0-9a-f]+\.json$/.test(f));
  if (!name) throw new Error(`no search.*.json in ${dir}`);
  return { file: path.join(dir, name), text: await readFile(path.join(dir, name), 'utf8') };
}

export interface LatencyResult {
  median: number;
  p95: number;
  /** Timed searches (queries × rounds). */
  count: number;
  /** Where the queries were timed. */
  timedBy: string;
  /** From posting `load` to the worker's `ready`: download, JSON parse and the engine's constructor. */
  loadMs: number;
  records: number;
  /** Queries that found nothing, to show the list still fits the index. */
  empty: string[];
}

const ROUNDS = 3;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/**
 * Query latency in the search worker itself, in Chromium: the worker the built site ships is started
 * as the app starts it and loads `index`; each query is posted and the time the worker reports for it
 * (between receiving the query and posting its results) is collected. `index` is copied into `distDir`
 * first, so any index (the 2,000-page tree's too) is measured by the same worker code, same-origin.
 */
export async function measureInWorker(
  distDir: string,
  index: SearchIndexFile,
  queries = QUERIES,
): Promise<LatencyResult> {
  const served = path.join(
    distDir,
    'assets/js',
    `bench-search.${createHash('sha256').update(index.text).digest('hex').slice(0, 8)}.json`,
  );
  await writeFile(served, index.text);
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  try {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${base}/docs/`);
    const run = await page.evaluate(
      async ({ dataUrl, queries, rounds }) => {
        const meta = document.querySelector<HTMLMetaElement>('meta[name="docs-manifest"]');
        const manifest = (await (await fetch(meta?.content ?? '')).json()) as { searchWorker: string };
        const worker = new Worker(manifest.searchWorker, { type: 'module', name: 'search' });
        type Reply = { type: string; records?: number; ms?: number; results?: { total: number } };
        const reply = () =>
          new Promise<Reply>((resolve) =>
            worker.addEventListener('message', (e: MessageEvent<Reply>) => resolve(e.data), { once: true }),
          );
        const started = performance.now();
        worker.postMessage({ type: 'load', url: dataUrl });
        const ready = await reply();
        const loadMs = performance.now() - started;
        if (ready.type !== 'ready') throw new Error(`the search worker could not load ${dataUrl}`);
        let id = 0;
        const ask = (query: string) => {
          worker.postMessage({ type: 'query', id: ++id, query });
          return reply();
        };
        // One untimed pass, as a worker that has answered before: the JIT has seen every query.
        const empty: string[] = [];
        for (const query of queries) if ((await ask(query)).results?.total === 0) empty.push(query);
        const times: number[] = [];
        for (let round = 0; round < rounds; round++)
          for (const query of queries) times.push((await ask(query)).ms ?? NaN);
        worker.terminate();
        return { times, loadMs, records: ready.records ?? 0, empty };
      },
      { dataUrl: `/docs/assets/js/${path.basename(served)}`, queries, rounds: ROUNDS },
    );
    const sorted = run.times.sort((a, b) => a - b);
    return {
      median: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      count: sorted.length,
      timedBy: 'the search worker in Chromium',
      loadMs: run.loadMs,
      records: run.records,
      empty: run.empty,
    };
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(served, { force: true });
  }
}

export interface SearchTargets {
  p95Ms: number;
  indexGzipBytes?: number;
}

/** Index size and query latency figures for one site. */
export function searchFigures(
  label: string,
  index: SearchIndexFile | undefined,
  latency: LatencyResult | undefined,
  targets: SearchTargets,
  reason = '',
): Figure[] {
  const section = 'Search';
  const indexTarget = targets.indexGzipBytes === undefined ? {} : { target: { max: targets.indexGzipBytes } };
  const missing = `not measured${reason ? `: ${reason}` : ''}`;
  const raw = index ? Buffer.byteLength(index.text) : null;
  const gzip = index ? gzipSync(index.text, { level: 9 }).length : null;
  const from = index && /search-data/.test(index.file) ? 'from the build stages (full build stopped)' : '';
  return [
    { section, name: `${label}: index (raw)`, value: raw, unit: 'bytes', note: index ? from : missing },
    { section, name: `${label}: index (gzip -9)`, value: gzip, unit: 'bytes', ...indexTarget },
    {
      section,
      name: `${label}: query median`,
      value: latency?.median ?? null,
      unit: 'ms',
      note: latency
        ? `${QUERIES.length} queries, ${latency.count} timed searches over ${latency.records} sections; timed by ${latency.timedBy}`
        : missing,
    },
    {
      section,
      name: `${label}: query p95`,
      value: latency?.p95 ?? null,
      unit: 'ms',
      target: { max: targets.p95Ms },
      note: latency
        ? `index load ${latency.loadMs.toFixed(0)} ms${latency.empty.length ? `; no hits: ${latency.empty.join(', ')}` : ''}`
        : '',
    },
  ];
}
