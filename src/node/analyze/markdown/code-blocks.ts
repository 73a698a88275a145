/**
 * What the page pass hands each code block to: the highlight stage (src/node/render/highlight) implements it,
 * here and now or with a marker it fills in later.
 */
export interface BlockHighlighter {
  /** The inner HTML of `<code>` (or, for a deferred highlighter, a marker it replaces later). */
  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string;
}
