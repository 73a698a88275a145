/**
 * A page-analysis thread of the build: the page pass (`loadPage`) on the files it is sent, each answered
 * with its page, its problems and its code blocks. Bundled for Node and started by
 * analyze/analyze-threads.ts; the messages are in analyze/analyze-protocol.ts. It puts the analyze stage
 * together with the render stage's code blocks, as build.ts puts the stages together, so it sits beside it.
 */
import { workerData } from 'node:worker_threads';
import { CodeBlocks } from './render/highlight/blocks';
import { answerRequests } from './threads';
import { analyzeFile } from './analyze/analyze-file';
import type { AnalyzeAnswer, AnalyzeRequest, AnalyzeWorkerData } from './analyze/analyze-protocol';
import { heldText } from './analyze/text-store';

const { settings, strict } = workerData as AnalyzeWorkerData;
// Blocks get this thread's markers; the page pass swaps them for the build's (analyze/foreign-blocks.ts).
const blocks = new CodeBlocks();
// Texts stay in memory only until the answer is sent.
const site = { ...settings, highlighter: blocks, texts: { put: heldText } };
let blocksSent = 0;

answerRequests<AnalyzeRequest, AnalyzeAnswer>('analyze-worker.ts', async (file) => {
  const { page, problems } = await analyzeFile(file, site, strict);
  // Every block a fragment names goes with its answer or an earlier one: answers leave in this order.
  const found = blocks.foundFrom(blocksSent);
  blocksSent = blocks.count;
  if (!page) return { answer: { page, problems, blocks: found } };
  const { html, markdown, search, ...rest } = page;
  const sent = { ...rest, html: html.read(), markdown: markdown.read(), search: search.json.read() };
  return { answer: { page: sent, problems, blocks: found } };
});
