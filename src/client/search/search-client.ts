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
  /**
   * The worker times each of its fetches, but a worker whose script never arrives (or that stops
   * answering) never reports. So whatever the page waits for, the index's first file or a query's answer,
   * it waits at most the spec's deadline, and a timeout names the file the worker last said it fetched.
   */
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private awaiting = '';

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
    this.wait();
  }

  /** Runs a query; `onResults` gets the top of the list first (`first`) when the rest takes longer, then the whole list. */
  query(query: string, onResults: (results: SearchResults, ms: number, first: boolean) => void): void {
    const id = this.nextId++;
    this.pending.clear(); // only the newest query's answer is drawn
    this.pending.set(id, onResults);
    this.post({ type: 'query', id, query });
    this.wait();
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
      if (this.pending.has(message.id)) this.awaiting = message.urls[0] ?? this.awaiting;
    } else {
      const first = message.first === true;
      if (this.pending.has(message.id) && !first) clearTimeout(this.deadline);
      this.pending.get(message.id)?.(message.results, message.ms, first);
      if (!first) this.pending.delete(message.id);
    }
  }

  /** Starts the deadline of what was just asked of the worker, naming the index's entry until it says more. */
  private wait(): void {
    clearTimeout(this.deadline);
    this.awaiting = this.dataUrl;
    this.deadline = setTimeout(
      () => this.fail(new ChunkLoadError('search', 'timeout', this.awaiting)),
      CHUNK_LOAD_TIMEOUT_MS,
    );
  }

  /** Ending the worker cancels whatever it was fetching, so a Retry starts a new one that asks afresh. */
  private fail(error: ChunkLoadError): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.setState({ status: 'failed', errorType: error.type, request: error.request, message: error.message });
  }

  private setState(state: IndexState): void {
    if (state.status !== 'loading') clearTimeout(this.deadline);
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }
}
