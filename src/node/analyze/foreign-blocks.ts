import { blockMarkers, type BlockHighlighter, type FoundBlocks } from './markdown/code-blocks';

/**
 * The code blocks found by page passes on other threads, each handed once to this thread's highlighter:
 * a fragment from such a thread gets, in place of each of its markers, what this highlighter gives for
 * the block (its HTML, or a marker of its own), as though its page had been rendered here.
 */
export class ForeignBlocks {
  /** By nonce, the highlighter's answer for each block that thread's highlighter found, by its id there. */
  private readonly lists = new Map<string, { marker: RegExp; here: string[] }>();

  constructor(private readonly highlighter: BlockHighlighter) {}

  /** A fragment rendered on another thread, with the blocks that thread found since the last one it sent. */
  adopt(fragment: string, found: FoundBlocks): string {
    let list = this.lists.get(found.nonce);
    if (!list) this.lists.set(found.nonce, (list = { marker: blockMarkers(found.nonce), here: [] }));
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
