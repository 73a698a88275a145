/** How long the search data's making holds the thread before it lets other work run. */
const SLICE_MS = 10;

/**
 * How the making of the search data gives way. `npm run dev` makes it again once the writer pauses, and
 * on a site of thousands of pages that takes seconds: a save made meanwhile must not wait for it, and
 * makes the data being made out of date. So the work lets the event loop run every few milliseconds
 * (`tick`), and stops there, throwing the signal's reason, once `signal` is aborted. The build passes no
 * signal: its making only gives way.
 */
export class SearchPace {
  private sliceStart = performance.now();

  constructor(private readonly signal?: AbortSignal) {}

  async tick(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal?.throwIfAborted();
    this.sliceStart = performance.now();
  }
}
