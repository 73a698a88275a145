/**
 * The one script every worker thread of the build runs, started through `RequestThreads` (threads.ts):
 * a page thread of the page pass (analyze/analyze-threads.ts) or a prerender thread of the output stage
 * (output/prerender-threads.ts), as the work it starts with says. It puts the analyze stage together with
 * the page highlighter, as build.ts puts the stages together, so it sits beside it.
 */
import { workerData } from 'node:worker_threads';
import { answerPages, type PageThreadWork } from './analyze/analyze-threads';
import { answerDocuments, type PrerenderThreadWork } from './output/prerender-threads';
import { PageHighlighter } from './highlight/page-highlighter';

const work = workerData as PageThreadWork | PrerenderThreadWork;
if (work.kind === 'pages') {
  const { cacheDir, wasm } = work.highlighting;
  answerPages(work, await PageHighlighter.load(cacheDir, wasm));
} else answerDocuments(work);
