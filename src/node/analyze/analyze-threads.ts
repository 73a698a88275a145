import { buildWorkerScript } from '../compiled';
import type { Diagnostic } from '../diagnostics';
import type { ContentFile } from '../scan/scan';
import { answerRequests, RequestThreads, threadsFor } from '../threads';
import { analyzeFile, type AnalyzedFile } from './analyze-file';
import type { BuildHighlighting, CodeHighlighting, ThreadHighlighting } from './markdown/code-blocks';
import type { CompletePage } from './page-record';
import type { PageSearch } from './page-search';
import type { PageSettings } from './page-source';
import { heldSearch, type SearchSink } from './stored-search';
import { heldText, type TextSink } from './text-store';

/**
 * Below this many files the page pass stays on the build's own thread. A thread has a fixed cost (it loads
 * the markdown pipeline's modules and shiki, optimises that code a second time and has a heap of its own
 * to collect), and two threads at once spend more CPU on a page than one alone: on two cores, a pass of
 * the real tree's pages with their code cached gains by a thread only from about a thousand pages, and
 * this leaves a margin for a busy machine.
 */
const MIN_PAGES_FOR_THREADS = 1500;
/**
 * The same with every code block still to highlight (an empty highlight cache), where a page costs more.
 * A thread pays for itself later than a page's cost suggests: it compiles the grammars' scanners and fills
 * its own cache of tokenized lines again, and runs its first pages unoptimised. On two cores, cold builds
 * of `content/` (141 pages) and of 183 to 729 pages of a real tree were faster on the build's thread alone;
 * from about a thousand pages a thread beside it gained a little.
 */
const MIN_PAGES_FOR_THREADS_COLD = 800;

/**
 * How the page pass over `files` page files is shared: its page threads (none below the threshold), and
 * whether the build's own thread makes pages too. From the threshold on, every core gets a thread and the
 * build's thread only hands out the work. Below it, only code to highlight starts threads, and then the
 * build's thread, which has the pipeline loaded already, makes pages beside a thread on each other core:
 * a thread spends its first part of a second loading what the build's thread has.
 */
export function pagePassShare(files: number, coldCode = false): { threads: number; here: boolean } {
  if (files >= MIN_PAGES_FOR_THREADS) return { threads: threadsFor(files, MIN_PAGES_FOR_THREADS), here: false };
  return { threads: coldCode ? threadsFor(files, MIN_PAGES_FOR_THREADS_COLD, 1) : 0, here: true };
}

/** What a page thread starts with: the site's settings, whether content problems are errors, its highlighting. */
export interface PageThreadWork {
  kind: 'pages';
  settings: PageSettings;
  strict: boolean;
  highlighting: ThreadHighlighting;
}

/**
 * A page as a thread sends it: its texts as they are, for the page pass to put in the build's store, and
 * its search terms as JSON, which the build's thread puts in their stored form.
 */
type SentPage = Omit<CompletePage, 'html' | 'markdown' | 'search'> & { html: string; markdown: string; search: string };

interface PageAnswer {
  page: SentPage | undefined;
  problems: Diagnostic[];
  /** The cache keys of the page's code blocks. */
  code: string[];
  /** The highlight cache entries the thread made for them and has not sent before. */
  made: [key: string, html: string][];
}

/**
 * The page pass on worker threads: each makes the pages of the files it is sent with `analyzeFile`, as
 * the build's own thread would, and its pages come back whole, their texts put in the build's store and
 * their code blocks kept by the build's highlighting. `stop` must follow, whatever happens.
 */
export interface AnalyzeThreads {
  readonly count: number;
  /** The file made into a page on a thread; a fault there (or the thread's end) rejects, naming the file. */
  analyze(file: ContentFile): Promise<AnalyzedFile>;
  stop(): Promise<void>;
}

/** Starts `count` threads making pages with the settings of `work`. */
export async function startAnalyzeThreads(
  count: number,
  work: Omit<PageThreadWork, 'kind'> | Promise<Omit<PageThreadWork, 'kind'>>,
  highlighting: BuildHighlighting,
  { texts, search }: { texts: TextSink; search: SearchSink },
): Promise<AnalyzeThreads> {
  const workerData = Promise.resolve(work).then((settings): PageThreadWork => ({ kind: 'pages', ...settings }));
  const threads = await RequestThreads.start<ContentFile, PageAnswer>('page', buildWorkerScript(), {
    count,
    workerData,
    describe: (file) => `analyzing ${file.relativePath}`,
  });
  const analyze = async (file: ContentFile): Promise<AnalyzedFile> => {
    const { page, problems, code, made } = await threads.request(file);
    highlighting.keep(code, made);
    return {
      page: page && {
        ...page,
        file,
        html: texts.put(page.html),
        markdown: texts.put(page.markdown),
        search: search.put(JSON.parse(page.search) as PageSearch),
      },
      problems,
      code,
    };
  };
  return { count: threads.count, analyze, stop: () => threads.stop() };
}

/**
 * A page thread's side: each file it is sent made into a page with `highlighter`, answered with the page,
 * its problems, its code blocks' keys and the highlight cache entries the thread made for them.
 */
export function answerPages(
  work: PageThreadWork,
  highlighter: CodeHighlighting & { made(keys: readonly string[]): [key: string, html: string][] },
): void {
  // Texts stay in memory only until the answer is sent.
  const site = { ...work.settings, highlighter, texts: { put: heldText }, search: heldSearch };
  // Each entry made here is sent once: the build's thread keeps it from then on.
  const sent = new Set<string>();
  answerRequests<ContentFile, PageAnswer>('build-worker.ts', async (file) => {
    const { page, problems, code } = await analyzeFile(file, site, work.strict);
    const made = highlighter.made(code.filter((key) => !sent.has(key)));
    for (const [key] of made) sent.add(key);
    if (!page) return { answer: { page, problems, code, made } };
    const { html, markdown, search, ...rest } = page;
    const answer = { ...rest, html: html.read(), markdown: markdown.read(), search: JSON.stringify(search.read()) };
    return { answer: { page: answer, problems, code, made } };
  });
}
