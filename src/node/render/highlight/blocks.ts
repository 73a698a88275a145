import { randomBytes } from 'node:crypto';
import { highlightKey, type HighlightCache } from './cache';
import {
  blockMarker,
  blockMarkers,
  type BlockHighlighter,
  type FoundBlock,
  type FoundBlocks,
} from '../../analyze/markdown/code-blocks';
import { plainCodeHtml } from './code-highlighter';
import { isKnownLanguage, isPlainLanguage } from './languages';

/** One distinct code block of the site: what its HTML depends on, and the key it is cached and found by. */
export interface CodeBlock extends FoundBlock {
  key: string;
}

/**
 * The code blocks the page pass finds. Each page's fragment gets a marker where a block's HTML goes;
 * `fill` puts the HTML in once `highlightBlocks` has made it. Blocks can be read while the pages are still
 * being rendered (it is an async iterable that ends at `close`), so highlighting starts with the first.
 * Plain text needs no highlighter: its HTML goes in at once.
 */
export class CodeBlocks implements BlockHighlighter, AsyncIterable<CodeBlock> {
  /** The random part of this list's markers (`blockMarker`). */
  private readonly nonce = randomBytes(6).toString('hex');
  private readonly marker = blockMarkers(this.nonce);
  private readonly idOf = new Map<string, number>();
  private readonly blocks: CodeBlock[] = [];
  private closed = false;
  private wake: (() => void) | undefined;
  /** The highlight cache once `prepare` has waited for it, for the drawings the page pass keeps there. */
  private cache: HighlightCache | undefined;

  /** `loadingCache`: the build's highlight cache; none on a page-analysis thread, which draws every time. */
  constructor(private readonly loadingCache?: Promise<HighlightCache>) {}

  /** Waits for the cache at the first page with a diagram: a build without any never waits for it. */
  async prepare(languages: readonly string[]): Promise<void> {
    if (languages.includes('mermaid')) this.cache ??= await this.loadingCache;
  }

  drawn(key: string, draw: () => string | undefined): string | undefined {
    return this.cache ? this.cache.drawn(key, draw) : draw();
  }

  knows(lang: string): boolean {
    return isKnownLanguage(lang);
  }

  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
    if (isPlainLanguage(lang)) return plainCodeHtml(code, highlightedLines);
    const key = highlightKey(code, lang, highlightedLines);
    let id = this.idOf.get(key);
    if (id === undefined) {
      // A copy: the code as cut from its page's text would keep that whole text alive.
      id = this.blocks.push({ key, code: structuredClone(code), lang, lines: [...highlightedLines] }) - 1;
      this.idOf.set(key, id);
      this.wake?.();
    }
    return blockMarker(this.nonce, id);
  }

  /** How many distinct blocks have been found. */
  get count(): number {
    return this.blocks.length;
  }

  /** The blocks found from the `from`-th on, for a page pass on another thread to send (analyze/foreign-blocks.ts). */
  foundFrom(from: number): FoundBlocks {
    return { nonce: this.nonce, from, blocks: this.blocks.slice(from) };
  }

  /** No more blocks will come: the iteration ends once it has given every block. */
  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<CodeBlock> {
    let next = 0;
    for (;;) {
      while (next < this.blocks.length) yield this.blocks[next++] as CodeBlock;
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /** The keys of the blocks whose markers a text (a fragment) holds, in order. */
  keysIn(text: string): string[] {
    return [...text.matchAll(this.marker)].flatMap((m) => this.blocks[Number(m[1])]?.key ?? []);
  }

  /** The text (a fragment) with each block's marker replaced by its HTML from `html` (by block key). */
  fill(text: string, html: ReadonlyMap<string, string>): string {
    return text.replace(this.marker, (_, id: string) => html.get(this.blocks[Number(id)]?.key ?? '') ?? '');
  }
}
