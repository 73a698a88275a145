import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { parentPort, Worker, type TransferListItem } from 'node:worker_threads';

/**
 * How many threads work of `units` (pages, documents) is worth, sized once for the machine: none below
 * `minUnits`, where a thread's start costs more than it saves; else one for each core the build's own
 * thread leaves free. While pages are made, the build's thread only hands out the work and stores what
 * comes back, which keeps it busy enough (given pages of its own as well, it fell behind and left the
 * threads waiting for their next file): every core gets a thread (`busyHere` 0). While documents are
 * rendered, it writes every file of the site, the longer task: it keeps a core to itself (`busyHere` 1),
 * as a thread more would only wait for it and cost its start and its heap.
 */
export function threadsFor(units: number, minUnits: number, busyHere: 0 | 1 = 0): number {
  if (units < minUnits) return 0;
  return Math.max(1, availableParallelism() - busyHere);
}

/** A request as its thread receives it: the id its answer goes back with. */
interface ThreadRequest<Request> {
  id: number;
  request: Request;
}

type ThreadReply<Answer> =
  | { id: number; type: 'answered'; answer: Answer }
  /** The error the request failed with on the thread, as it would have been thrown on the build's own. */
  | { id: number; type: 'failed'; message: string; stack: string | undefined };

/** An answer, and what of it is handed over with the message rather than copied (the buffer of bytes). */
export interface Answering<Answer> {
  answer: Answer;
  transfer?: TransferListItem[];
}

export interface RequestThreadOptions<Request> {
  count: number;
  /** Given to every thread; a promise is awaited before the threads start. */
  workerData?: unknown;
  /** What a thread does with a request ("analyzing guide/a.md"), for the error of a thread that stopped before answering it. */
  describe?: (request: Request) => string;
}

interface Sent<Request, Answer> {
  request: Request;
  thread: Thread;
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  unanswered: number;
}

/**
 * Threads that answer requests, each running `answerRequests` in a compiled script (src/node/compiled.ts):
 * plain JavaScript, so the threads never run under the loaders (tsx, vitest) the build itself may run
 * under. A request goes to the thread with the fewest unanswered. A thread's own error fails that request
 * only; a thread that stops or fails fails every request unanswered and every one sent after. A running
 * thread keeps the process alive, so `stop` must follow, whatever happens; a thread it ends is no failure.
 */
export class RequestThreads<Request, Answer> {
  private readonly sent = new Map<number, Sent<Request, Answer>>();
  private nextId = 0;
  private failure: Error | undefined;
  private stopping = false;
  private readonly threads: Thread[];

  private constructor(
    name: string,
    script: string,
    workerData: unknown,
    private readonly options: RequestThreadOptions<Request>,
  ) {
    this.threads = Array.from({ length: options.count }, () => {
      const worker = new Worker(script, { execArgv: [], workerData });
      const fail = (error: Error) => this.fail(error, worker);
      worker.on('error', (error) => fail(new Error(`a ${name} thread failed: ${error.stack ?? error.message}`)));
      worker.on('exit', (code) =>
        fail(new Error(`a ${name} thread stopped (exit code ${code}) before its work was done`)),
      );
      return this.listen(worker);
    });
  }

  static async start<Request, Answer>(
    name: string,
    script: string,
    options: RequestThreadOptions<Request>,
  ): Promise<RequestThreads<Request, Answer>> {
    await access(script).catch(() => {
      throw new Error(`the build's ${name} thread is not compiled (${script} is missing): run npm run compile`);
    });
    return new RequestThreads<Request, Answer>(name, script, await options.workerData, options);
  }

  /** How many threads answer. */
  get count(): number {
    return this.threads.length;
  }

  request(request: Request): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    const thread = this.threads.reduce((least, next) => (next.unanswered < least.unanswered ? next : least));
    return this.send(thread, request);
  }

  /**
   * Sends `request` to every thread, as what each must have before the requests sent after it (a thread
   * takes its messages in the order they were sent): resolves once every thread has answered it.
   */
  requestEveryThread(request: Request): Promise<Answer[]> {
    if (this.failure) return Promise.reject(this.failure);
    return Promise.all(this.threads.map((thread) => this.send(thread, request)));
  }

  private send(thread: Thread, request: Request): Promise<Answer> {
    const id = this.nextId++;
    const message: ThreadRequest<Request> = { id, request };
    return new Promise<Answer>((resolve, reject) => {
      this.sent.set(id, { request, thread, resolve, reject });
      thread.unanswered++;
      thread.worker.postMessage(message);
    });
  }

  /** Ends the threads; a request sent after fails, saying so. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.failure ??= new Error('the threads were stopped');
    await Promise.all(this.threads.map(({ worker }) => worker.terminate()));
  }

  private listen(worker: Worker): Thread {
    const thread: Thread = { worker, unanswered: 0 };
    worker.on('message', (reply: ThreadReply<Answer>) => {
      const sent = this.sent.get(reply.id);
      if (!sent) return;
      this.sent.delete(reply.id);
      thread.unanswered--;
      if (reply.type === 'answered') return sent.resolve(reply.answer);
      const error = new Error(reply.message);
      if (reply.stack) error.stack = reply.stack;
      sent.reject(error);
    });
    return thread;
  }

  /** The first failure of a thread, led by what that thread had not answered yet. */
  private fail(error: Error, worker: Worker): void {
    if (this.stopping || this.failure) return;
    const unanswered = [...this.sent.values()].filter((sent) => sent.thread.worker === worker);
    const { describe } = this.options;
    if (describe && unanswered.length > 0) {
      const doing = unanswered.map((sent) => describe(sent.request)).join(', ');
      error = new Error(`${doing}: ${error.message}`, { cause: error });
    }
    this.failure = error;
    for (const sent of this.sent.values()) sent.reject(error);
    this.sent.clear();
  }
}

/**
 * A thread's side of `RequestThreads`: answers each request with what `answer` resolves to, or fails it
 * with the error `answer` throws. Requests are taken as they come, each while the others wait for files.
 */
export function answerRequests<Request, Answer>(
  script: string,
  answer: (request: Request) => Promise<Answering<Answer>>,
): void {
  const port = parentPort;
  if (!port) throw new Error(`${script} runs as a worker thread of the build`);
  port.on('message', ({ id, request }: ThreadRequest<Request>) => {
    answer(request).then(
      ({ answer, transfer }) => {
        const reply: ThreadReply<Answer> = { id, type: 'answered', answer };
        port.postMessage(reply, transfer);
      },
      (error: unknown) => {
        const reply: ThreadReply<Answer> = {
          id,
          type: 'failed',
          message: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        };
        port.postMessage(reply);
      },
    );
  });
}
