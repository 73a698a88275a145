import { randomBytes } from 'node:crypto';
import { highlightKey } from './cache';
import type { BlockHighlighter } from '../../analyze/markdown/code-blocks';
import { plainCodeHtml } from './code-highlighter';
import { isKnownLanguage, isPlainLanguage } from './languages';

/** One distinct code block of the site: what its HTML depends on, and the key it is cached and found by. */
export interface CodeBlock {
  key: string;
  code: string;
  lang: string;
  lines: number[];
}

/**
 * The code blocks the page pass finds. Each page's fragment gets a marker where a block's HTML goes;
 * `fill` puts the HTML in once `highlightBlocks` has made it. Blocks can be read while the pages are still
 * being rendered (it is an async iterable that ends at `close`), so highlighting starts with the first.
 * Plain text needs no highlighter: its HTML goes in at once.
 */
export class CodeBlocks implements BlockHighlighter, AsyncIterable<CodeBlock> {
  /**
   * Markers are plain ASCII text with a random part: they pass the sanitizer as text, and a fragment that
   * holds one stays a one-byte string (half the memory of a two-byte one) until it is filled in.
   */
  private readonly nonce = randomBytes(6).toString('hex');
  private readonly marker = markerPattern(this.nonce);
  private readonly idOf = new Map<string, number>();
  private readonly blocks: CodeBlock[] = [];
  private closed = false;
  private wake: (() => void) | undefined;

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
    return `hl-${this.nonce}-${id}-hl`;
  }

  /** How many distinct blocks have been found. */
  get count(): number {
    return this.blocks.length;
  }

  /** The blocks found from the `from`-th on, for a page pass on another thread to send (`ForeignBlocks`). */
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

/** The blocks one thread's `CodeBlocks` found from the `from`-th on, and the nonce of its markers. */
export interface FoundBlocks {
  nonce: string;
  from: number;
  blocks: CodeBlock[];
}

function markerPattern(nonce: string): RegExp {
  return new RegExp(`hl-${nonce}-(\\d+)-hl`, 'g');
}

/**
 * The code blocks found by page passes on other threads, each handed once to this thread's highlighter:
 * a fragment from such a thread gets, in place of each of its markers, what this highlighter gives for
 * the block (its HTML, or a marker of this thread's), as though its page had been rendered here.
 */
export class ForeignBlocks {
  /** By nonce, the highlighter's answer for each block that thread's list found, by that list's id. */
  private readonly lists = new Map<string, { marker: RegExp; here: string[] }>();

  constructor(private readonly highlighter: BlockHighlighter) {}

  /** A fragment rendered on another thread, with the blocks its list found since the last one it sent. */
  adopt(fragment: string, found: FoundBlocks): string {
    let list = this.lists.get(found.nonce);
    if (!list) this.lists.set(found.nonce, (list = { marker: markerPattern(found.nonce), here: [] }));
    const { here, marker } = list;
    for (const [i, { code, lang, lines }] of found.blocks.entries())
      here[found.from + i] = this.highlighter.highlight(code, lang, new Set(lines));
    if (here.length === 0) return fragment;
    return fragment.replace(marker, (_, id: string) => {
      const block = here[Number(id)];
      if (block === undefined) throw new Error(`code block ${id} of another thread came after the fragment using it`);
      return block;
    });
  }
}
