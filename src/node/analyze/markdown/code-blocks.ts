/**
 * What the page pass hands each code block to: the highlighter (src/node/render/highlight implements it),
 * which gives the block's HTML at once.
 */
export interface BlockHighlighter {
  /**
   * True when the language (or alias) is one the highlighter colours, or a plain-text name: the page pass
   * warns about any other, which is shown as plain text. The highlighter knows, as it loads the grammars.
   */
  knows(lang: string): boolean;
  /** The inner HTML of `<code>`. */
  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string;
  /**
   * What the page pass drew for a block it draws itself (a diagram, by a key that names its text and its
   * renderer), kept in the highlight cache between builds: the cached drawing when there is one, else
   * `draw`'s, recorded unless undefined (a failure). A highlighter without a cache has no such method.
   */
  drawn?(key: string, draw: () => string | undefined): string | undefined;
}

/** A code block highlighted: its HTML, and the key the highlight cache keeps it by (none for plain text). */
export interface HighlightedBlock {
  html: string;
  key?: string;
}

/**
 * The highlighter a page is made with: its grammars loaded for the languages the page's fences name
 * before the page pass, and each block's cache key given with its HTML, so the caches know which blocks a
 * page uses.
 */
export interface CodeHighlighting {
  knows(lang: string): boolean;
  prepare(languages: readonly string[]): Promise<void>;
  block(code: string, lang: string, highlightedLines: ReadonlySet<number>): HighlightedBlock;
  /**
   * What the page pass drew for a block it draws itself (a diagram, by a key that names its text and its
   * renderer), kept in the highlight cache between builds: the cached drawing when there is one, else
   * `draw`'s, recorded unless undefined (a failure).
   */
  drawn(key: string, draw: () => string | undefined): string | undefined;
}

/**
 * The build's highlighting, which keeps the blocks of the pages made on other threads or reused from the
 * render cache (with the entries another thread made) in the highlight cache it saves.
 */
export interface BuildHighlighting extends CodeHighlighting {
  /** Whether its cache was empty: every block needs highlighting, and threads pay off sooner. */
  readonly cold: boolean;
  keep(keys: readonly string[], made?: readonly [key: string, html: string][]): void;
  /** What a page thread's highlighter is made from. */
  forThreads(): Promise<ThreadHighlighting>;
}

/** A page thread's highlighter: the build's cache folder (read there, written here) and shiki's compiled engine. */
export interface ThreadHighlighting {
  cacheDir: string | undefined;
  wasm: WebAssembly.Module;
}
