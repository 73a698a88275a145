import { DiagnosticList, type Diagnostic } from '../diagnostics';
import type { ContentFile } from '../scan/scan';
import type { BlockHighlighter, CodeHighlighting } from './markdown/code-blocks';
import { loadPage, type SiteContext } from './page-source';
import type { CompletePage } from './page-record';

/** One page file made into a page: its page (none when it has errors), its problems in order and its code. */
export interface AnalyzedFile {
  page: CompletePage | undefined;
  problems: Diagnostic[];
  /** The cache keys of the code blocks its fragment holds, which the highlight and render caches keep. */
  code: string[];
}

/** What a page is made with on any thread: the site's settings, where its texts go and its highlighter. */
export type PageMaking = Omit<SiteContext, 'diagnostics' | 'highlighter'> & { highlighter: CodeHighlighting };

/**
 * The page pass's work on one file, the same on any thread: the file's problems are collected apart, so
 * the pass adds them in the files' order whichever thread finished first. A fault of the build's own
 * (thrown, never a diagnostic) fails the pass naming the file.
 */
export async function analyzeFile(file: ContentFile, site: PageMaking, strict: boolean): Promise<AnalyzedFile> {
  const diagnostics = new DiagnosticList(strict);
  const code = new Set<string>();
  try {
    const highlighter = recordingKeys(site.highlighter, code);
    const page = await loadPage(file, { ...site, highlighter, diagnostics });
    return { page, problems: diagnostics.items, code: page ? [...code] : [] };
  } catch (error) {
    throw new Error(`analyzing ${file.relativePath}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** The highlighter for one page: each block's cache key goes to `code`. */
function recordingKeys(
  highlighting: CodeHighlighting,
  code: Set<string>,
): BlockHighlighter & Pick<CodeHighlighting, 'prepare'> {
  return {
    knows: (lang) => highlighting.knows(lang),
    prepare: (languages) => highlighting.prepare(languages),
    highlight: (text, lang, lines) => {
      const { html, key } = highlighting.block(text, lang, lines);
      if (key !== undefined) code.add(key);
      return html;
    },
    drawn: (key, draw) => {
      const drawing = highlighting.drawn(key, draw);
      if (drawing !== undefined) code.add(key);
      return drawing;
    },
  };
}
