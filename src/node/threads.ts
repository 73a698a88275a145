import { access } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

/** Worker threads of the build, all running one compiled script. */
export interface BuildThreads {
  workers: Worker[];
  /** Starts one more thread on the script. */
  spawn(): Worker;
  /** Ends the threads. */
  stop(): Promise<void>;
}

export interface ThreadOptions {
  count: number;
  /** Given to every thread; a promise is awaited before the threads start. */
  workerData?: unknown;
  /** Called once with the first failure of any thread; a thread ended by `stop` is not a failure. */
  onFailure: (error: Error) => void;
}

/**
 * Starts `count` threads on a compiled script (src/node/compiled.ts): plain JavaScript, so the threads
 * never run under the loaders (tsx, vitest) the build itself may run under. A running thread keeps the
 * process alive (the build waits for its answers), so `stop` must always follow.
 */
export async function startThreads(name: string, script: string, options: ThreadOptions): Promise<BuildThreads> {
  await access(script).catch(() => {
    throw new Error(`the build's ${name} thread is not compiled (${script} is missing): run npm run compile`);
  });
  const workerData = await options.workerData;
  let stopping = false;
  let failed = false;
  const fail = (error: Error) => {
    if (stopping || failed) return;
    failed = true;
    options.onFailure(error);
  };
  const workers: Worker[] = [];
  const spawn = () => {
    const worker = new Worker(script, { execArgv: [], workerData });
    worker.on('error', (error) => fail(new Error(`a ${name} thread failed: ${error.stack ?? error.message}`)));
    worker.on('exit', (code) =>
      fail(new Error(`a ${name} thread stopped (exit code ${code}) before its work was done`)),
    );
    workers.push(worker);
    return worker;
  };
  for (let i = 0; i < options.count; i++) spawn();
  return {
    workers,
    spawn,
    stop: async () => {
      stopping = true;
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
