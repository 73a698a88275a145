import path from 'node:path';
import { renderMarkdown } from '../../src/node/analyze/markdown/pipeline';
import type { BlockHighlighter, BuildHighlighting } from '../../src/node/analyze/markdown/code-blocks';
import { DiagnosticList, formatDiagnostic } from '../../src/node/diagnostics';

/** Code left as it is: for tests of what the page pass makes around the code. */
export const PLAIN_CODE: BlockHighlighter = { knows: () => true, highlight: (code) => code };

/** The same for the page pass of a build (`analyzePages`), on the build's own thread only. */
export const PLAIN_BUILD_CODE: BuildHighlighting = {
  cold: false,
  knows: () => true,
  prepare: async () => undefined,
  block: (code) => ({ html: code }),
  drawn: (_key, draw) => draw(),
  keep: () => undefined,
  forThreads: () => Promise.reject(new Error('this highlighting has no page threads')),
};

export interface GuidePageOptions {
  /** The content folder the page is in (its images and links resolve there). */
  contentDir?: string;
  highlighter?: BlockHighlighter;
  /** Lines of frontmatter above the body: reported lines must add them. */
  lineOffset?: number;
}

/**
 * `guide/page.md` at /guide/page/ under /docs/, rendered by the page pass as the build renders it, with
 * its diagnostics as a writer reads them.
 */
export function renderGuidePage(body: string, options: GuidePageOptions = {}) {
  const { contentDir = '/nonexistent', highlighter = PLAIN_CODE, lineOffset = 0 } = options;
  const diagnostics = new DiagnosticList();
  const page = renderMarkdown(body, {
    file: 'guide/page.md',
    absoluteDir: path.join(contentDir, 'guide'),
    contentDir,
    route: '/guide/page/',
    base: '/docs/',
    lineOffset,
    constants: {},
    highlighter,
    strict: true,
    diagnostics,
  });
  return { page, messages: diagnostics.sorted().map(formatDiagnostic) };
}
