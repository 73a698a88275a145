import type { Tokens } from 'marked';
import type { BlockHighlighter } from './code-blocks';
import { parseCodeInfo } from './code-info';
import { cachedDiagram } from './diagram';
import { isClosedFence } from './token-source';

/** What the renderer prints for a code block (renderer.ts), prepared by the analysis walk. */
export interface CodeAnnotation {
  html?: string;
  label?: string;
  /** The gutter's numbers: the first line's number and how many lines there are. */
  numbers?: { start: number; count: number };
  /** A mermaid block's drawing (diagram.ts), shown instead of its code. */
  diagram?: string;
  /** What search indexes of a diagram instead of its source: its title, description and labels. */
  labels?: string[];
}

/** Where a code block's problems go: at an offset of the page body. */
export type CodeReport = (offset: number, message: string, severity: 'error' | 'warning') => void;

/**
 * Prepares a fenced or indented code block: its language checked (any shiki bundles is highlighted; another
 * is shown plain, with a warning), its marked lines, its line numbers (the fence's `:line-numbers` or
 * `:no-line-numbers`, else the site's `lineNumbers`) and its HTML from the highlighter.
 */
export function annotateCode(
  code: Tokens.Code & CodeAnnotation,
  offset: number,
  options: { highlighter: BlockHighlighter; lineNumbers: boolean; report: CodeReport },
): void {
  const { lang, lines, lineNumbers, start } = parseCodeInfo(code.lang ?? '');
  if (/^(```|~~~)/.test(code.raw.trimStart()) && !isClosedFence(code.raw)) {
    options.report(offset, 'code fence is never closed: add a closing ``` line', 'error');
  }
  if (lang === 'mermaid') {
    const drawn = cachedDiagram(code.text, options.highlighter.drawn?.bind(options.highlighter));
    if ('svg' in drawn) Object.assign(code, { diagram: drawn.svg, labels: drawn.labels });
    else options.report(lineOffset(code, offset, drawn.line), drawn.problem, 'error');
    return;
  }
  let language = lang;
  if (lang && !options.highlighter.knows(lang)) {
    options.report(offset, `unknown code language "${lang}", shown as plain text`, 'warning');
    language = 'text';
  }
  code.label = lang || 'text';
  code.html = options.highlighter.highlight(code.text, language || 'text', lines);
  if (lineNumbers ?? options.lineNumbers) code.numbers = { start, count: code.text.split('\n').length };
}

/** The offset of a line of a fenced block's code: its fence line comes first. */
function lineOffset(code: Tokens.Code, offset: number, line: number): number {
  const fence = code.raw.indexOf('\n') + 1;
  const before = code.raw.slice(fence).split('\n').slice(0, line);
  return offset + fence + before.reduce((sum, text) => sum + text.length + 1, 0);
}
