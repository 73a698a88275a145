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
  private readonly answers = new AnswerOrder();
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

  /**
   * Runs a query; `onResults` gets the top of the list first (`first`) when the rest takes longer, then the
   * whole list. A query typed past still gets its answer when the worker had it ready before the newest
   * (`AnswerOrder`).
   */
  query(query: string, onResults: (results: SearchResults, ms: number, first: boolean) => void): void {
    const id = this.nextId++;
    this.answers.ask(id);
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
      if (message.id === this.answers.newest) this.awaiting = message.urls[0] ?? this.awaiting;
    } else {
      const first = message.first === true;
      const onResults = this.pending.get(message.id);
      if (!onResults || !this.answers.take(message.id)) return;
      if (message.id === this.answers.newest && !first) clearTimeout(this.deadline);
      for (const id of this.pending.keys())
        if (id < message.id || (id === message.id && !first)) this.pending.delete(id);
      onResults(message.results, message.ms, first);
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

/**
 * Which of the worker's answers the page draws. The worker ranks the newest query it has seen, but while
 * it ranks, the reader types on: the answer to a query typed past can arrive while the newest is still
 * on its way. Drawn, it fills an empty list (or replaces an older one) until the newest answer comes;
 * an answer older than one already drawn would only take the list back.
 */
export class AnswerOrder {
  /** The newest query asked. */
  newest = 0;
  private drawn = 0;

  ask(id: number): void {
    this.newest = id;
  }

  /** Whether the answer (or the top of the list) to query `id` is drawn. */
  take(id: number): boolean {
    if (id < this.drawn || id > this.newest) return false;
    this.drawn = id;
    return true;
  }
}
