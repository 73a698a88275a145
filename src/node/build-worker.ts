/**
 * The one script every worker thread of the build runs, started through `RequestThreads` (threads.ts):
 * a page thread of the page pass (analyze/analyze-threads.ts) or a prerender thread of the output stage
 * (output/prerender-threads.ts), as the work it starts with says. It puts the analyze stage together with
 * the page highlighter, as build.ts puts the stages together, so it sits beside it. Each kind imports only
 * its own code: a prerender thread never loads the markdown pipeline's packages (marked, shiki, KaTeX, the
 * diagram renderer), whose loading and heap would cost it more than the documents it renders.
 */
import { workerData } from 'node:worker_threads';
import type { PageThreadWork } from './analyze/analyze-threads';
import type { PrerenderThreadWork } from './output/prerender-threads';

const work = workerData as PageThreadWork | PrerenderThreadWork;
if (work.kind === 'pages') {
  const [{ answerPages }, { PageHighlighter }] = await Promise.all([
    import('./analyze/analyze-threads'),
    import('./highlight/page-highlighter'),
  ]);
  const { cacheDir, wasm } = work.highlighting;
  answerPages(work, await PageHighlighter.load(cacheDir, wasm));
} else {
  const { answerDocuments } = await import('./output/prerender-threads');
  answerDocuments(work);
}
