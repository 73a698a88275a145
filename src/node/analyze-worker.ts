/**
 * A page thread of the build: the page pass (`analyzeFile`) on the files it is sent, each answered with
 * its page, its problems, its code blocks' keys and the highlight cache entries it made. Bundled for Node
 * and started by analyze/analyze-threads.ts; the messages are in analyze/analyze-protocol.ts. It puts the
 * analyze stage together with the render stage's highlighter, as build.ts puts the stages together, so it
 * sits beside it.
 */
import { workerData } from 'node:worker_threads';
import { PageHighlighter } from './render/highlight/page-highlighter';
import { answerRequests } from './threads';
import { analyzeFile } from './analyze/analyze-file';
import type { AnalyzeAnswer, AnalyzeRequest, AnalyzeWorkerData } from './analyze/analyze-protocol';
import { heldText } from './analyze/text-store';

const { settings, strict, highlighting } = workerData as AnalyzeWorkerData;
const highlighter = await PageHighlighter.load(highlighting.cacheDir, highlighting.wasm);
// Texts stay in memory only until the answer is sent.
const site = { ...settings, highlighter, texts: { put: heldText } };
// Each entry made here is sent once: the build's thread keeps it from then on.
const sent = new Set<string>();

answerRequests<AnalyzeRequest, AnalyzeAnswer>('analyze-worker.ts', async (file) => {
  const { page, problems, code } = await analyzeFile(file, site, strict);
  const made = highlighter.made(code.filter((key) => !sent.has(key)));
  for (const [key] of made) sent.add(key);
  if (!page) return { answer: { page, problems, code, made } };
  const { html, markdown, search, ...rest } = page;
  const answer = { ...rest, html: html.read(), markdown: markdown.read(), search: search.json.read() };
  return { answer: { page: answer, problems, code, made } };
});
