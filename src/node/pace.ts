/** How long a long task holds the thread before it lets other work run. */
const SLICE_MS = 10;

/**
 * How a long task on the build's thread gives way: it lets the event loop run every few milliseconds
 * (`tick`), and stops there, throwing the signal's reason, once `signal` is aborted. The search data
 * (site/search-files.ts): `npm run dev` makes it again once the writer pauses, which on a site of
 * thousands of pages takes seconds, and a save made meanwhile must not wait for it (and makes the data
 * being made out of date). The output's files (output/output-folder.ts), written at once on this thread:
 * a prerender thread's documents, and a save, are heard as the site is written. The build passes no
 * signal: its work only gives way.
 */
export class Pace {
  private sliceStart = performance.now();

  constructor(private readonly signal?: AbortSignal) {}

  async tick(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal?.throwIfAborted();
    this.sliceStart = performance.now();
  }
}
