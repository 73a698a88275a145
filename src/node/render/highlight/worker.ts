/**
 * A highlight thread of the build: its own shiki, highlighting the code blocks the pool sends it.
 * Bundled for Node and started by pool.ts; the messages are in protocol.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CodeHighlighter } from './code-highlighter';
import type { HighlightReply, HighlightRequest, HighlightWorkerData } from './protocol';

const port = parentPort;
if (!port) throw new Error('highlight-worker.ts runs as a worker thread of the build');
const reply = (message: HighlightReply) => port.postMessage(message);

const { wasm } = workerData as HighlightWorkerData;
// Only the grammars of the languages this thread is sent are loaded, when they first come.
const highlighter = await CodeHighlighter.create(undefined, { languages: [], wasm });

async function highlight(jobs: HighlightRequest['jobs']): Promise<HighlightReply> {
  await highlighter.loadLanguages(jobs.map((job) => job.lang));
  return {
    type: 'highlighted',
    results: jobs.map((job) => [job.id, highlighter.highlight(job.code, job.lang, new Set(job.lines))]),
  };
}

port.on('message', ({ jobs }: HighlightRequest) => {
  highlight(jobs).then(reply, (error: unknown) =>
    reply({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
