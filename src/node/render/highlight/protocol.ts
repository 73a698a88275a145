/** The messages between the build's highlight pool and its threads (pool.ts ↔ worker.ts). */

/** What every thread starts with: the regular-expression engine, compiled once by the pool. */
export interface HighlightWorkerData {
  wasm: WebAssembly.Module;
}

/** One code block to highlight: an id the pool chose, the code, its language and its marked lines. */
export interface HighlightJob {
  id: number;
  code: string;
  lang: string;
  lines: number[];
}

export type HighlightRequest = { type: 'highlight'; jobs: HighlightJob[] };

export type HighlightReply =
  { type: 'highlighted'; results: [id: number, html: string][] } | { type: 'failed'; message: string };
