import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { RequestThreads, startThreads } from '../../../src/node/threads';
import { projectRoot } from '../../helpers/tree';

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
    await expect.poll(() => failures.length, { timeout: 15_000 }).toBe(1);
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

  /** A thread answering with `answerRequests` from the compiled module at `threads`, as the build's do. */
  const answering = (threads: string, answer: string) =>
    script(
      [
        `import { answerRequests } from ${JSON.stringify(threads)};`,
        `answerRequests('thread.mjs', async (request) => (${answer}));`,
      ].join('\n'),
    );

  it('answer each request, failing only the one whose answer throws, with its error', async () => {
    const module = path.join(await mkdtemp(path.join(tmpdir(), 'threads-')), 'threads.mjs');
    await build(module);
    const thrower = `{ answer: request === 'bad' ? (() => { throw new Error('no answer to ' + request); })() : request.toUpperCase() }`;
    const threads = await RequestThreads.start<string, string>('test', await answering(module, thrower), { count: 2 });
    try {
      const answers = ['a', 'bad', 'c'].map((request) => threads.request(request));
      await expect(answers[1]).rejects.toThrow('no answer to bad');
      expect(await Promise.all([answers[0], answers[2]])).toEqual(['A', 'C']);
    } finally {
      await threads.stop();
    }
  });

  it('fail every unanswered request when a thread stops, naming what it was doing', async () => {
    const module = path.join(await mkdtemp(path.join(tmpdir(), 'threads-')), 'threads.mjs');
    await build(module);
    const threads = await RequestThreads.start<string, string>(
      'test',
      await answering(module, "request === 'stop' ? process.exit(3) : new Promise(() => undefined)"),
      { count: 1, describe: (request) => `doing ${request}` },
    );
    try {
      const waiting = threads.request('wait');
      const stopping = threads.request('stop');
      const failure = /^doing wait, doing stop: a test thread stopped \(exit code 3\) before its work was done$/;
      await expect(waiting).rejects.toThrow(failure);
      await expect(stopping).rejects.toThrow(failure);
      await expect(threads.request('later')).rejects.toThrow(failure);
    } finally {
      await threads.stop();
    }
  });
});

/** src/node/threads.ts (which imports only Node's modules) as JavaScript in `file`, for the test threads to import. */
async function build(file: string): Promise<void> {
  const source = await readFile(path.join(projectRoot, 'src/node/threads.ts'), 'utf8');
  await writeFile(file, (await esbuild.transform(source, { loader: 'ts', format: 'esm' })).code);
}
