import type { Tokens } from 'marked';
import type { BlockHighlighter } from './code-blocks';
import { parseCodeInfo } from './code-info';

/** What the renderer prints for a code block (renderer.ts), prepared by the analysis walk. */
export interface CodeAnnotation {
  html?: string;
  label?: string;
  /** The gutter's numbers: the first line's number and how many lines there are. */
  numbers?: { start: number; count: number };
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
  let language = lang;
  if (lang && !options.highlighter.knows(lang)) {
    options.report(offset, `unknown code language "${lang}", shown as plain text`, 'warning');
    language = 'text';
  }
  code.label = lang || 'text';
  code.html = options.highlighter.highlight(code.text, language || 'text', lines);
  if (lineNumbers ?? options.lineNumbers) code.numbers = { start, count: code.text.split('\n').length };
}

function isClosedFence(raw: string): boolean {
  const lines = raw.trimEnd().split('\n');
  const open = /^\s*(`{3,}|~{3,})/.exec(lines[0] ?? '')?.[1] ?? '```';
  const last = lines.length > 1 ? (lines[lines.length - 1] ?? '').trim() : '';
  return last.startsWith(open) && /^(`+|~+)$/.test(last);
}
