import { Parser } from 'htmlparser2';
import { HTML_PARSER_OPTIONS } from './html-tags';

/**
 * The stylesheet skips the layout of a code block or a table out of view (`content-visibility: auto`), and
 * a browser lays out a skipped block at a guessed height in its first frame, learning only after that frame
 * which blocks are in view: one on the first screen then grows or shrinks and moves what follows it (a
 * layout shift). A block marked with this class is never skipped. The build marks every block that may be on
 * the first screen of any window: those whose top is less than `FIRST_SCREEN` below the page's start at the
 * smallest height what comes before them can take, at the widest column.
 */
const FIRST_SCREEN_CLASS = 'first-screen';

/** Taller than any window's first screen, in CSS pixels. */
const FIRST_SCREEN = 1300;
/**
 * Heights no line can be below, whatever the window (app.css: body text 16px/1.65, code 13.5px/1.6, a
 * table's cells 15px with 8px of padding).
 */
const TEXT_LINE = 22;
const CODE_LINE = 20;
const TABLE_ROW = 32;
/**
 * The space an element takes beyond its lines, at the least (app.css): the margin it keeps after its
 * neighbour's has collapsed into it, a heading's padding, a code block's head and its code's padding.
 */
const SPACING: Record<string, number> = { p: 16, ul: 16, ol: 16, blockquote: 16, h2: 52, h3: 16, pre: 24 };
const WRAPPER_SPACING = 36;
/** More characters than a line of the widest column holds. */
const LINE_CHARS = 120;

/** How much of the fragment is read at a time. */
const READ_CHARS = 4_096;

/** The elements whose text runs in lines of its own; nested ones are counted on their own. */
const TEXT_BLOCKS = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'dd', 'figcaption', 'blockquote']);
/** The wrappers the renderer gives code blocks and tables (renderer.ts, pipeline.ts), the only ones marked. */
const WRAPPERS = ['code-block', 'table-wrap'];

/** Marks the fragment's code blocks and tables that may be on the first screen with `FIRST_SCREEN_CLASS`. */
export function markFirstScreen(html: string): string {
  const marked = firstScreenWrappers(html);
  if (marked.size === 0) return html;
  let index = 0;
  return html.replace(/<div class="(code-block|table-wrap)"(?=[ >])/g, (tag, name: string) =>
    marked.has(index++) ? `<div class="${name} ${FIRST_SCREEN_CLASS}"` : tag,
  );
}

/**
 * The indices, in document order among the wrappers, of those whose top may be on the first screen. Content
 * that may be hidden (in a `<details>`, a tab's panel, anything `hidden`) counts as no height, a line of
 * text as its least and a table as its rows: each estimate is a floor, so no block that may be seen at the
 * start is left out.
 */
function firstScreenWrappers(html: string): Set<number> {
  const marked = new Set<number>();
  let top = 0;
  let wrappers = 0;
  /** Open elements, innermost last, with the characters of text read in each. */
  const open: { name: string; chars: number; hides: boolean }[] = [];
  const within = (test: (element: { name: string; hides: boolean }) => boolean) => open.some(test);
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const shown = !within((element) => element.hides);
        if (name === 'div' && WRAPPERS.includes(attributes['class'] ?? '')) {
          if (shown && top < FIRST_SCREEN) marked.add(wrappers);
          if (shown) top += WRAPPER_SPACING;
          wrappers++;
        }
        if (shown && !within((element) => element.name === 'table')) top += SPACING[name] ?? 0;
        if (name === 'tr' && shown) top += TABLE_ROW;
        open.push({ name, chars: 0, hides: name === 'details' || 'hidden' in attributes });
      },
      ontext(text) {
        if (within((element) => element.hides)) return;
        if (within((element) => element.name === 'pre')) {
          top += (text.match(/\n/g)?.length ?? 0) * CODE_LINE;
          return;
        }
        const block = innermost(open, (element) => TEXT_BLOCKS.has(element.name));
        if (block >= 0) open[block]!.chars += text.trim().length;
      },
      onclosetag(name) {
        const at = innermost(open, (element) => element.name === name);
        if (at < 0) return;
        const [element] = open.splice(at);
        // A table's height is counted by its rows, whatever its cells hold.
        if (within((parent) => parent.hides || parent.name === 'table') || !element) return;
        if (name === 'pre') top += CODE_LINE;
        if (TEXT_BLOCKS.has(name) && element.chars > 0) top += Math.ceil(element.chars / LINE_CHARS) * TEXT_LINE;
      },
    },
    HTML_PARSER_OPTIONS,
  );
  // Read a piece at a time, and no further once what has been read is past the first screen: a long page
  // is mostly below it.
  const past = () => top + open.reduce((lines, e) => lines + Math.ceil(e.chars / LINE_CHARS), 0) * TEXT_LINE;
  for (let at = 0; at < html.length && past() < FIRST_SCREEN; at += READ_CHARS) {
    parser.write(html.slice(at, at + READ_CHARS));
  }
  return marked;
}

/** The index of the innermost open element that passes `test`, or -1. */
function innermost<T>(open: T[], test: (element: T) => boolean): number {
  for (let i = open.length - 1; i >= 0; i--) if (test(open[i]!)) return i;
  return -1;
}
