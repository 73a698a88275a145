import { rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { nodeBundleFile } from './worker-bundle';

/** Worker threads of the build, all running one bundled script. */
export interface BuildThreads {
  workers: Worker[];
  /** Starts one more thread on the script. */
  spawn(): Worker;
  /** Ends the threads and removes their script. */
  stop(): Promise<void>;
}

export interface ThreadOptions {
  count: number;
  /** Given to every thread; a promise is awaited while the script is bundled. */
  workerData?: unknown;
  /** Called once with the first failure of any thread; a thread ended by `stop` is not a failure. */
  onFailure: (error: Error) => void;
}

/**
 * Bundles a script with `bundle` and starts `count` threads on it. The threads run plain JavaScript,
 * without the loaders (tsx, vitest) the build itself may run under: a loader would transform every module
 * they import, which costs more than the work they do on a small site. A running thread keeps the
 * process alive (the build waits for its answers), so `stop` must always follow.
 */
export async function startThreads(
  srcDir: string,
  name: string,
  bundle: (srcDir: string, outFile: string) => Promise<void>,
  options: ThreadOptions,
): Promise<BuildThreads> {
  const script = nodeBundleFile(srcDir, name);
  // Both settled before anything is cleaned up, so the script is never written after it was removed.
  const [bundled, data] = await Promise.allSettled([bundle(srcDir, script), options.workerData]);
  if (bundled.status === 'rejected' || data.status === 'rejected') {
    await rm(script, { force: true });
    throw bundled.status === 'rejected' ? bundled.reason : (data as PromiseRejectedResult).reason;
  }
  const workerData = data.value;
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
      await Promise.all([...workers.map((worker) => worker.terminate()), rm(script, { force: true })]);
    },
  };
}
