import type { SearchData } from '../../shared/types';
import type { SearchResults } from './engine';

export interface QueryTimings {
  /** Milliseconds. */
  median: number;
  p95: number;
  max: number;
  /** Number of timed searches. */
  count: number;
}

export interface MeasureOptions {
  /** Times to run the whole list; every run is timed. Default 3. */
  rounds?: number;
  /** Untimed runs first, so the figures are of a warm engine as in a worker that has answered before. Default 1. */
  warmup?: number;
}

/**
 * Query latency of a search engine: the time `search` takes per query, as the worker spends it between
 * receiving a query and posting its results. Pure and synchronous, for the benchmark (Node) and the
 * browser alike.
 */
export function measureQueries(
  engine: { search(query: string): SearchResults },
  queries: readonly string[],
  options: MeasureOptions = {},
): QueryTimings {
  const { rounds = 3, warmup = 1 } = options;
  for (let i = 0; i < warmup; i++) for (const query of queries) engine.search(query);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const started = performance.now();
      engine.search(query);
      times.push(performance.now() - started);
    }
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95), max: times.at(-1) ?? 0, count: times.length };
}

/** Every prefix of each query, as the worker sees them while the reader types: "okta" → "o", "ok", "okt", "okta". */
export function keystrokes(queries: readonly string[]): string[] {
  return queries.flatMap((query) => [...query].map((_, i) => query.slice(0, i + 1)).filter((q) => q.trim() !== ''));
}

/**
 * Queries drawn from an index itself, for trees whose content nobody chose queries for (a generated
 * one): heading words, two-word headings, a title, an unfinished word and one-letter typos. Deterministic.
 */
export function sampleQueries(data: SearchData, count = 40): string[] {
  const headings = data.records.map((r) => r.h).filter((h) => /^[\p{L}\d ]{6,}$/u.test(h));
  const titles = data.pages.map((p) => p.t);
  const queries: string[] = [];
  for (let i = 0; queries.length < count && headings.length > 0 && titles.length > 0; i++) {
    const heading = headings[(i * 7919) % headings.length] ?? '';
    const words = heading
      .toLowerCase()
      .split(' ')
      .filter((w) => w.length > 3);
    const word = words[0] ?? heading.toLowerCase();
    switch (i % 5) {
      case 0:
        queries.push(word);
        break;
      case 1:
        queries.push(words.slice(0, 2).join(' ') || word);
        break;
      case 2:
        queries.push(titles[(i * 104729) % titles.length] ?? word);
        break;
      case 3:
        queries.push(word.slice(0, Math.max(2, Math.ceil(word.length / 2))));
        break;
      default:
        // Swap two letters in the middle: a typo the engine should still answer.
        queries.push(word.length > 4 ? word.slice(0, 2) + word[3] + word[2] + word.slice(4) : word);
    }
  }
  return queries;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}
