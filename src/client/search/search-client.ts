import { ChunkLoadError } from '../../shared/chunk-error';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';
import type { ChunkLoadErrorType } from '../../shared/types';
import type { SearchResults } from './results';
import type { WorkerRequest, WorkerResponse } from './protocol';

export type IndexState =
  | { status: 'loading' }
  | { status: 'ready'; records: number }
  | { status: 'failed'; errorType: ChunkLoadErrorType; request: string; httpStatus?: number; message: string };

type Listener = (state: IndexState) => void;

/**
 * The page's connection to the search worker. It outlives the dialog so the index is loaded once per
 * visit and search keeps working offline; a failed load is retried on the next request.
 */
export class SearchClient {
  private worker: Worker | undefined;
  private state: IndexState = { status: 'loading' };
  private readonly listeners = new Set<Listener>();
  private readonly pending = new Map<number, (results: SearchResults, ms: number, first: boolean) => void>();
  private nextId = 1;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  /** The newest query's deadline, and the shard it is waiting for. */
  private queryDeadline: ReturnType<typeof setTimeout> | undefined;
  private waitingFor: string | undefined;

  constructor(
    private readonly workerUrl: string,
    private readonly dataUrl: string,
  ) {}

  /** Starts the worker and the index download, or retries a failed one. */
  load(): void {
    if (this.state.status === 'ready' || (this.worker && this.state.status === 'loading')) return;
    this.setState({ status: 'loading' });
    if (!this.worker) {
      try {
        this.worker = new Worker(this.workerUrl, { type: 'module', name: 'search' });
      } catch {
        this.fail(new ChunkLoadError('search-worker', 'error', this.workerUrl));
        return;
      }
      this.worker.onmessage = (event: MessageEvent<WorkerResponse>) => this.receive(event.data);
      this.worker.onerror = () => this.fail(new ChunkLoadError('search-worker', 'error', this.workerUrl));
    }
    this.post({ type: 'load', url: this.dataUrl });
    // The worker times its own fetch, but a worker whose script never arrives never starts that clock.
    // The page keeps the spec's deadline for the whole load (worker script and index) instead.
    clearTimeout(this.deadline);
    this.deadline = setTimeout(() => this.timeOut(), CHUNK_LOAD_TIMEOUT_MS);
  }

  /** Runs a query; `onResults` gets the top of the list first (`first`) when the rest takes longer, then the whole list. */
  query(query: string, onResults: (results: SearchResults, ms: number, first: boolean) => void): void {
    const id = this.nextId++;
    this.pending.clear(); // only the newest query's answer is drawn
    this.pending.set(id, onResults);
    this.post({ type: 'query', id, query });
    // A query may fetch shards of the index; the worker times each fetch, and the page keeps the spec's
    // deadline for the whole answer, as it does for the index's first file.
    this.waitingFor = undefined;
    clearTimeout(this.queryDeadline);
    this.queryDeadline = setTimeout(() => this.queryTimedOut(id), CHUNK_LOAD_TIMEOUT_MS);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  private post(message: WorkerRequest): void {
    this.worker?.postMessage(message);
  }

  private receive(message: WorkerResponse): void {
    if (message.type === 'ready') this.setState({ status: 'ready', records: message.records });
    else if (message.type === 'failed')
      this.setState({
        status: 'failed',
        errorType: message.errorType,
        request: message.request,
        ...(message.status ? { httpStatus: message.status } : {}),
        message: message.message,
      });
    else if (message.type === 'fetching') {
      if (this.pending.has(message.id)) this.waitingFor = message.urls[0];
    } else {
      const first = message.first === true;
      if (this.pending.has(message.id) && !first) clearTimeout(this.queryDeadline);
      this.pending.get(message.id)?.(message.results, message.ms, first);
      if (!first) this.pending.delete(message.id);
    }
  }

  private queryTimedOut(id: number): void {
    if (this.pending.has(id) && this.state.status === 'ready') {
      this.fail(new ChunkLoadError('search', 'timeout', this.waitingFor ?? this.dataUrl));
    }
  }

  private timeOut(): void {
    if (this.state.status === 'loading') this.fail(new ChunkLoadError('search', 'timeout', this.dataUrl));
  }

  /** Ending the worker cancels whatever it was fetching, so a Retry starts a new one that asks afresh. */
  private fail(error: ChunkLoadError): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.setState({ status: 'failed', errorType: error.type, request: error.request, message: error.message });
  }

  private setState(state: IndexState): void {
    if (state.status !== 'loading') clearTimeout(this.deadline);
    if (state.status === 'failed') clearTimeout(this.queryDeadline);
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }
}
