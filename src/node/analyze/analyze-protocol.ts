/** The messages between the page pass and its page-analysis threads (analyze-threads.ts ↔ ../analyze-worker.ts). */
import type { Diagnostic } from '../diagnostics';
import type { ContentFile } from '../scan/scan';
import type { FoundBlocks } from './markdown/code-blocks';
import type { LoadedPage, PageSettings } from './page-source';

/** What every thread starts with: the site's settings, and whether content problems are errors. */
export interface AnalyzeWorkerData {
  settings: PageSettings;
  strict: boolean;
}

/** A page file to analyze. */
export type AnalyzeRequest = ContentFile;

/** A page as a thread sends it: its texts as they are, for the page pass to put in the build's store. */
export type SentPage = Omit<LoadedPage, 'html' | 'markdown' | 'search'> & {
  /** The fragment, with markers of the thread's code blocks. */
  html: string;
  markdown: string;
  /** The search terms as JSON. */
  search: string;
};

export interface AnalyzeAnswer {
  page: SentPage | undefined;
  problems: Diagnostic[];
  /** The code blocks the thread found since its last answer, which this fragment's markers may name. */
  blocks: FoundBlocks;
}
