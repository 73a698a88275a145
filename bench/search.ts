/**
 * Search figures: the size of the search index a build ships, and query latency in the real search
 * worker over a fixed list of realistic queries (typos included).
 */
import { readdir, readFile } from 'node:fs/promises';
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

/** The search data a build wrote: its entry file and every shard, as paths. */
export interface SearchDataFiles {
  entry: string;
  shards: string[];
}

/** The search data a build wrote into dist/assets/js. */
export async function findSearchData(distDir: string): Promise<SearchDataFiles> {
  const dir = path.join(distDir, 'assets/js');
  const name = (await readdir(dir)).find((f) => /^search\.[0-9a-f]+\.json$/.test(f));
  if (!name) throw new Error(`no search.*.json in ${dir}`);
  const shards = (await readdir(path.join(dir, 'search'))).map((f) => path.join(dir, 'search', f));
  return { entry: path.join(dir, name), shards };
}

export interface LatencyResult {
  median: number;
  p95: number;
  /** Timed searches (queries × rounds). */
  count: number;
  /** Where the queries were timed. */
  timedBy: string;
  /** From posting `load` to the worker's `ready`: the entry file's download and parse. */
  loadMs: number;
  records: number;
  /** Queries that found nothing, to show the list still fits the index. */
  empty: string[];
}

const ROUNDS = 3;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/**
 * Query latency in the search worker itself, in Chromium: the worker a built site ships is started as
 * the app starts it and loads the site's search entry; each query is posted once untimed (which loads
 * the shards it reaches), then timed: the time the worker reports (between receiving the query and
 * posting its results) is collected.
 */
export async function measureInWorker(distDir: string, queries = QUERIES): Promise<LatencyResult> {
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  try {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${base}/docs/`);
    const run = await page.evaluate(
      async ({ queries, rounds }) => {
        const pointer = (await (await fetch('/docs/version.json')).json()) as { manifest: string };
        const manifest = (await (await fetch(pointer.manifest)).json()) as { search: string; searchWorker: string };
        const dataUrl = manifest.search;
        const worker = new Worker(manifest.searchWorker, { type: 'module', name: 'search' });
        type Reply = { type: string; records?: number; ms?: number; results?: { total: number }; first?: boolean };
        // The worker's answer to a load or a query: a query's is its whole list, not the progress
        // messages and the top of the list that come before it.
        const reply = () =>
          new Promise<Reply>((resolve) => {
            const listen = (e: MessageEvent<Reply>) => {
              if (e.data.type === 'fetching' || e.data.first) return;
              worker.removeEventListener('message', listen);
              resolve(e.data);
            };
            worker.addEventListener('message', listen);
          });
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
      { queries, rounds: ROUNDS },
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
  }
}

export interface SearchTargets {
  p95Ms: number;
  entryGzipBytes?: number;
}

const gzipped = async (file: string) => gzipSync(await readFile(file), { level: 9 }).length;

/** Search data size and query latency figures for one site. */
export async function searchFigures(
  label: string,
  data: SearchDataFiles | undefined,
  latency: LatencyResult | undefined,
  targets: SearchTargets,
  reason = '',
): Promise<Figure[]> {
  const section = 'Search';
  const entryTarget = targets.entryGzipBytes === undefined ? {} : { target: { max: targets.entryGzipBytes } };
  const missing = `not measured${reason ? `: ${reason}` : ''}`;
  const entry = data ? await gzipped(data.entry) : null;
  let all: number | null = null;
  if (data) {
    all = entry ?? 0;
    for (const shard of data.shards) all += await gzipped(shard);
  }
  return [
    {
      section,
      name: `${label}: search entry (gzip -9)`,
      value: entry,
      unit: 'bytes',
      note: data ? 'what the worker loads before the first query' : missing,
      ...entryTarget,
    },
    {
      section,
      name: `${label}: all search files (gzip -9)`,
      value: all,
      unit: 'bytes',
      note: data ? `${data.shards.length} shards, each gzipped on its own; a query loads those it reaches` : missing,
    },
    {
      section,
      name: `${label}: query median`,
      value: latency?.median ?? null,
      unit: 'ms',
      note: latency
        ? `${QUERIES.length} queries, ${latency.count} timed searches over ${latency.records} sections, their shards loaded; timed by ${latency.timedBy}`
        : missing,
    },
    {
      section,
      name: `${label}: query p95`,
      value: latency?.p95 ?? null,
      unit: 'ms',
      target: { max: targets.p95Ms },
      note: latency
        ? `entry load ${latency.loadMs.toFixed(0)} ms${latency.empty.length ? `; no hits: ${latency.empty.join(', ')}` : ''}`
        : '',
    },
  ];
}
