import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { RequestThreads } from '../../../src/node/threads';
import { projectRoot } from '../../helpers/tree';

/** A thread script in a new temporary folder. */
async function script(code: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'threads-')), 'thread.mjs');
  await writeFile(file, code);
  return file;
}

describe('the build threads', () => {
  it('fails the requests with the error a thread throws, naming the thread', async () => {
    const threads = await RequestThreads.start<string, string>(
      'page',
      await script("throw new Error('page thread broke');\n"),
      { count: 2 },
    );
    try {
      const failure = /a page thread failed: .*page thread broke/s;
      await expect(threads.request('a')).rejects.toThrow(failure);
      // A thread takes a while to start on a busy machine: the poll's default second is not enough.
      await expect
        .poll(() => threads.request('b').catch((error: Error) => error.message), { timeout: 30_000 })
        .toMatch(failure);
    } finally {
      await threads.stop();
    }
  });

  it('says how to compile the thread when its script is missing', async () => {
    const missing = path.join(tmpdir(), 'no-such-folder', 'build-worker.mjs');
    await expect(RequestThreads.start('page', missing, { count: 1 })).rejects.toThrow(
      `the build's page thread is not compiled (${missing} is missing): run npm run compile`,
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

  it('hands every thread the same data, and a stop is no failure', async () => {
    const module = path.join(await mkdtemp(path.join(tmpdir(), 'threads-')), 'threads.mjs');
    await build(module);
    const code = [
      "import { workerData } from 'node:worker_threads';",
      `import { answerRequests } from ${JSON.stringify(module)};`,
      "answerRequests('thread.mjs', async () => ({ answer: workerData }));",
    ].join('\n');
    const threads = await RequestThreads.start<string, unknown>('test', await script(code), {
      count: 2,
      workerData: Promise.resolve({ answer: 42 }),
    });
    expect(await threads.requestEveryThread('data')).toEqual([{ answer: 42 }, { answer: 42 }]);
    await threads.stop();
    // Their ends are not reported as failures.
    await expect(threads.request('after')).rejects.toThrow(/^the threads were stopped$/);
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
