/** The messages between the page pass and its page threads (analyze-threads.ts ↔ ../analyze-worker.ts). */
import type { Diagnostic } from '../diagnostics';
import type { ContentFile } from '../scan/scan';
import type { ThreadHighlighting } from './markdown/code-blocks';
import type { LoadedPage, PageSettings } from './page-source';

/** What every thread starts with: the site's settings, whether content problems are errors, its highlighting. */
export interface AnalyzeWorkerData {
  settings: PageSettings;
  strict: boolean;
  highlighting: ThreadHighlighting;
}

/** A page file to make into a page. */
export type AnalyzeRequest = ContentFile;

/** A page as a thread sends it: its texts as they are, for the page pass to put in the build's store. */
export type SentPage = Omit<LoadedPage, 'html' | 'markdown' | 'search'> & {
  html: string;
  markdown: string;
  /** The search terms as JSON. */
  search: string;
};

export interface AnalyzeAnswer {
  page: SentPage | undefined;
  problems: Diagnostic[];
  /** The cache keys of the page's code blocks. */
  code: string[];
  /** The highlight cache entries the thread made for them and has not sent before. */
  made: [key: string, html: string][];
}
