import { DiagnosticList, type Diagnostic } from '../diagnostics';
import type { ContentFile } from '../scan/scan';
import { loadPage, type LoadedPage, type SiteContext } from './page-source';

/** One page file analyzed: its page (none when it has errors) and the problems reported in it, in order. */
export interface AnalyzedFile {
  page: LoadedPage | undefined;
  problems: Diagnostic[];
}

/**
 * The page pass's work on one file, the same on any thread: the file's problems are collected apart, so
 * the pass adds them in the files' order whichever thread finished first. A fault of the build's own
 * (thrown, never a diagnostic) fails the pass naming the file.
 */
export async function analyzeFile(
  file: ContentFile,
  site: Omit<SiteContext, 'diagnostics'>,
  strict: boolean,
): Promise<AnalyzedFile> {
  const diagnostics = new DiagnosticList(strict);
  try {
    const page = await loadPage(file, { ...site, diagnostics });
    return { page, problems: diagnostics.items };
  } catch (error) {
    throw new Error(`analyzing ${file.relativePath}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
