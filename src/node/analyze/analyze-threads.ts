import { availableParallelism } from 'node:os';
import { compiledFile, projectRootOf } from '../compiled';
import type { ContentFile } from '../scan/scan';
import { RequestThreads } from '../threads';
import type { AnalyzedFile } from './analyze-file';
import type { AnalyzeAnswer, AnalyzeRequest, AnalyzeWorkerData } from './analyze-protocol';
import type { BuildHighlighting } from './markdown/code-blocks';
import { parsedJson, type TextSink } from './text-store';

/**
 * Below this many files the page pass stays on the build's own thread. A thread has a fixed cost (it loads
 * the markdown pipeline's modules and shiki, optimises that code a second time and has a heap of its own
 * to collect), and two threads at once spend more CPU on a page than one alone: on two cores, a pass of
 * the real tree's pages with their code cached gains by a thread only from about a thousand pages, and
 * this leaves a margin for a busy machine.
 */
const MIN_PAGES_FOR_THREADS = 1500;
/**
 * The same with every code block still to highlight (an empty highlight cache), where a page costs many
 * times more and a thread pays for itself from a few dozen pages.
 */
const MIN_PAGES_FOR_THREADS_COLD = 40;

/** How many page threads a pass over `files` page files is worth: none below the threshold. */
export function analyzeThreadCount(files: number, coldCode = false): number {
  if (files < (coldCode ? MIN_PAGES_FOR_THREADS_COLD : MIN_PAGES_FOR_THREADS)) return 0;
  // The build's own thread makes pages too, besides taking the threads' pages in.
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The page pass on worker threads: each makes the pages of the files it is sent with `analyzeFile`, as
 * the build's own thread would, and its pages come back whole, their texts put in the build's store and
 * their code blocks kept by the build's highlighting. `stop` must follow, whatever happens.
 */
export class AnalyzeThreads {
  private constructor(
    private readonly threads: RequestThreads<AnalyzeRequest, AnalyzeAnswer>,
    private readonly highlighting: BuildHighlighting,
    private readonly texts: TextSink,
  ) {}

  /** Starts `count` threads making pages with `workerData`'s settings. */
  static async start(
    count: number,
    workerData: AnalyzeWorkerData | Promise<AnalyzeWorkerData>,
    highlighting: BuildHighlighting,
    texts: TextSink,
  ): Promise<AnalyzeThreads> {
    const threads = await RequestThreads.start<AnalyzeRequest, AnalyzeAnswer>('page', threadFile(), {
      count,
      workerData,
      describe: (file) => `analyzing ${file.relativePath}`,
    });
    return new AnalyzeThreads(threads, highlighting, texts);
  }

  get count(): number {
    return this.threads.count;
  }

  /** The file made into a page on a thread; a fault there (or the thread's end) rejects, naming the file. */
  async analyze(file: ContentFile): Promise<AnalyzedFile> {
    const { page, problems, code, made } = await this.threads.request(file);
    this.highlighting.keep(code, made);
    if (!page) return { page, problems, code };
    const { html, markdown, search, ...rest } = page;
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
      code,
    };
  }

  async stop(): Promise<void> {
    await this.threads.stop();
  }
}

/** The script each page thread runs: the compiled worker (src/node/compiled.ts). */
function threadFile(): string {
  return compiledFile(projectRootOf(import.meta.url), 'analyze-worker');
}
