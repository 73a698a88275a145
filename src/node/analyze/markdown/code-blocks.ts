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
  /**
   * Readies the highlighter for a page whose fences name these languages, before the page pass: one that
   * highlights at once (`npm run dev`) loads their grammars here. A deferred one needs nothing.
   */
  prepare?(languages: readonly string[]): Promise<void>;
  /** The inner HTML of `<code>` (or, for a deferred highlighter, a marker it replaces later). */
  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string;
  /**
   * What the page pass drew for a block it draws itself (a diagram, by a key that names its text and its
   * renderer), kept in the highlight cache between builds: the cached drawing when there is one, else
   * `draw`'s, recorded unless undefined (a failure). A highlighter without a cache has no such method.
   */
  drawn?(key: string, draw: () => string | undefined): string | undefined;
}

/** A highlighter the page pass tells when it has handed in every block. */
export interface BlockSink extends BlockHighlighter {
  close(): void;
}

/**
 * Where a deferred highlighter's block goes in a fragment until its HTML is put in: plain ASCII text with
 * a random part (`nonce`, one per highlighter), so that it passes the sanitizer as text, and a fragment
 * holding one stays a one-byte string (half the memory of a two-byte one) until it is filled in.
 */
export function blockMarker(nonce: string, id: number): string {
  return `hl-${nonce}-${id}-hl`;
}

/** Every marker of the highlighter with this nonce in a text, the block's id captured. */
export function blockMarkers(nonce: string): RegExp {
  return new RegExp(`hl-${nonce}-(\\d+)-hl`, 'g');
}

/** A code block as the page pass hands it in: the code, its language and its marked lines. */
export interface FoundBlock {
  code: string;
  lang: string;
  lines: number[];
}

/**
 * The blocks a deferred highlighter on another thread (a page-analysis thread) found from its `from`-th
 * block on, and the nonce of its markers: what that thread sends with a page.
 */
export interface FoundBlocks {
  nonce: string;
  from: number;
  blocks: FoundBlock[];
}
