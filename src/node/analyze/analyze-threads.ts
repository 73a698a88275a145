import { availableParallelism } from 'node:os';
import { compiledFile, projectRootOf } from '../compiled';
import type { ContentFile } from '../scan/scan';
import { RequestThreads } from '../threads';
import type { AnalyzedFile } from './analyze-file';
import { ForeignBlocks } from './foreign-blocks';
import type { AnalyzeAnswer, AnalyzeRequest, AnalyzeWorkerData } from './analyze-protocol';
import type { BlockHighlighter } from './markdown/code-blocks';
import { parsedJson, type TextSink } from './text-store';

/**
 * Below this many files the page pass stays on the build's own thread. A thread has a fixed cost (it loads
 * the markdown pipeline's modules, optimises that code a second time and has a heap of its own to collect),
 * and two threads at once spend more CPU on a page than one alone: on two cores, a pass of the real tree's
 * pages gains by a thread only from about a thousand pages, and this leaves a margin for a busy machine.
 */
const MIN_PAGES_FOR_THREADS = 1500;

/** How many page-analysis threads a pass over `files` page files is worth: none below the threshold. */
export function analyzeThreadCount(files: number): number {
  if (files < MIN_PAGES_FOR_THREADS) return 0;
  // The build's own thread analyzes too, besides taking the threads' pages in.
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The page pass on worker threads: each analyzes the files it is sent with `loadPage`, as the build's own
 * thread would, and its pages come back whole, their texts put in the build's store and their code blocks
 * handed to the build's highlighter. `stop` must follow, whatever happens.
 */
export class AnalyzeThreads {
  private readonly blocks: ForeignBlocks;

  private constructor(
    private readonly threads: RequestThreads<AnalyzeRequest, AnalyzeAnswer>,
    highlighter: BlockHighlighter,
    private readonly texts: TextSink,
  ) {
    this.blocks = new ForeignBlocks(highlighter);
  }

  /** Starts `count` threads analyzing with `settings`, problems being errors when `strict`. */
  static async start(
    count: number,
    workerData: AnalyzeWorkerData,
    highlighter: BlockHighlighter,
    texts: TextSink,
  ): Promise<AnalyzeThreads> {
    const threads = await RequestThreads.start<AnalyzeRequest, AnalyzeAnswer>('page-analysis', threadFile(), {
      count,
      workerData,
      describe: (file) => `analyzing ${file.relativePath}`,
    });
    return new AnalyzeThreads(threads, highlighter, texts);
  }

  get count(): number {
    return this.threads.count;
  }

  /** The file analyzed on a thread; a fault there (or the thread's end) rejects, naming the file. */
  async analyze(file: ContentFile): Promise<AnalyzedFile> {
    const { page, problems, blocks } = await this.threads.request(file);
    // Blocks are taken in with every answer, as each is the only one to carry them.
    const html = this.blocks.adopt(page?.html ?? '', blocks);
    if (!page) return { page, problems };
    const { markdown, search, ...rest } = page;
    const { texts } = this;
    return {
      page: {
        ...rest,
        file,
        html: texts.put(html),
        markdown: texts.put(markdown),
        search: parsedJson(texts.put(search)),
      },
      problems,
    };
  }

  async stop(): Promise<void> {
    await this.threads.stop();
  }
}

/** The script each page-analysis thread runs: the compiled worker (src/node/compiled.ts). */
function threadFile(): string {
  return compiledFile(projectRootOf(import.meta.url), 'analyze-worker');
}
