/**
 * What the page pass hands each code block to: the highlight stage (src/node/render/highlight) implements it,
 * here and now or with a marker it fills in later.
 */
export interface BlockHighlighter {
  /**
   * True when the language (or alias) is one the highlighter colours, or a plain-text name: the page pass
   * warns about any other, which is shown as plain text. The highlighter knows, as it loads the grammars.
   */
  knows(lang: string): boolean;
  /** The inner HTML of `<code>` (or, for a deferred highlighter, a marker it replaces later). */
  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string;
}

/** A highlighter the page pass tells when it has handed in every block. */
export interface BlockSink extends BlockHighlighter {
  close(): void;
}
