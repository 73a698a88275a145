import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startThreads } from '../../../src/node/threads';

/** A thread script in a new temporary folder. */
async function script(code: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'threads-')), 'thread.mjs');
  await writeFile(file, code);
  return file;
}

describe('the build threads', () => {
  it('reports the error a thread throws, once, naming the thread', async () => {
    const failures: Error[] = [];
    const threads = await startThreads('highlight', await script("throw new Error('highlight thread broke');\n"), {
      count: 2,
      onFailure: (error) => failures.push(error),
    });
    await expect.poll(() => failures.length).toBe(1);
    await threads.stop();
    expect(failures[0]?.message).toMatch(/a highlight thread failed: .*highlight thread broke/s);
  });

  it('hands every thread the same data, and stop ends them without counting as a failure', async () => {
    const failures: Error[] = [];
    // A thread that listens stays alive, as a highlight thread does between batches.
    const code = [
      "import { parentPort, workerData } from 'node:worker_threads';",
      'parentPort.on("message", () => undefined);',
      'parentPort.postMessage(workerData);',
    ].join('\n');
    const threads = await startThreads('highlight', await script(code), {
      count: 2,
      workerData: Promise.resolve({ answer: 42 }),
      onFailure: (error) => failures.push(error),
    });
    const replies = await Promise.all(
      threads.workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))),
    );
    expect(replies).toEqual([{ answer: 42 }, { answer: 42 }]);
    await threads.stop();
    expect(failures).toEqual([]);
  });

  it('says how to compile the thread when its script is missing', async () => {
    const missing = path.join(tmpdir(), 'no-such-folder', 'highlight-worker.mjs');
    await expect(startThreads('highlight', missing, { count: 1, onFailure: () => undefined })).rejects.toThrow(
      `the build's highlight thread is not compiled (${missing} is missing): run npm run compile`,
    );
  });
});
