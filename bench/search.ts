/**
 * Search figures in Node: the size of the search index a build ships and the latency of the real
 * SearchEngine over a fixed list of realistic queries (typos included).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { SearchData } from '../src/shared/types';
import { projectRoot } from './builds';
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

/** The part of src/client/search/engine.ts the bench uses. */
interface Engine {
  search(query: string): { total: number };
}
type EngineModule = { SearchEngine: new (data: SearchData) => Engine };
type MeasureModule = {
  measureQueries: (engine: Engine, queries: string[]) => { median: number; p95: number; count?: number };
};

// Browser code is outside the bench's TypeScript project, so it is loaded by path at run time.
const ENGINE_FILE = path.join(projectRoot, 'src/client/search/engine.ts');
const MEASURE_FILE = path.join(projectRoot, 'src/client/search/measure.ts');

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
  /** Who timed the queries: the team's measureQueries or the bench's own loop. */
  timedBy: string;
  /** JSON.parse plus the engine's constructor, once. */
  loadMs: number;
  records: number;
  /** Queries that found nothing, to show the list still fits the index. */
  empty: string[];
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/** Fallback timing: one untimed pass so the JIT has seen every query, then three timed rounds. */
function timeQueries(engine: Engine, queries: string[]): { median: number; p95: number; count: number } {
  for (const q of queries) engine.search(q);
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const started = performance.now();
      engine.search(q);
      samples.push(performance.now() - started);
    }
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 50), p95: percentile(samples, 95), count: samples.length };
}

export async function measureLatency(indexText: string, queries = QUERIES): Promise<LatencyResult> {
  const { SearchEngine } = (await import(pathToFileURL(ENGINE_FILE).href)) as EngineModule;
  const started = performance.now();
  const engine = new SearchEngine(JSON.parse(indexText) as SearchData);
  const loadMs = performance.now() - started;
  const empty = queries.filter((q) => engine.search(q).total === 0);
  let timedBy = 'bench loop (measure.ts not found)';
  let result: { median: number; p95: number; count: number };
  if (existsSync(MEASURE_FILE)) {
    const { measureQueries } = (await import(pathToFileURL(MEASURE_FILE).href)) as MeasureModule;
    const timed = measureQueries(engine, queries);
    result = { median: timed.median, p95: timed.p95, count: timed.count ?? queries.length };
    timedBy = 'src/client/search/measure.ts';
  } else {
    result = timeQueries(engine, queries);
  }
  const records = (JSON.parse(indexText) as SearchData).records.length;
  return { ...result, timedBy, loadMs, records, empty };
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
