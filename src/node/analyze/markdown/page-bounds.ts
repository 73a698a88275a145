/**
 * Limits on how much work one page may ask of the markdown parser. marked re-reads a list's or a quote's
 * content once per level it is nested in, recurses once per level (10,000 `>` on a line overflow the
 * stack), and looks ahead for the closer of every emphasis marker, so some pages of a few hundred
 * kilobytes would take hours. Each limit is counted, not timed, so a page passes or fails the same way
 * on any machine; each is far beyond what a page a person writes needs, and a page past one is refused
 * with its file and line rather than rendered.
 */

/**
 * Levels of lists and quotes a line may be nested in (markdown-it's default limit too). Browsers stop
 * nesting elements about 500 deep, and a list level is two or three of them.
 */
export const MAX_NESTING = 100;

/**
 * Text times the depth it is nested at, summed over the page: what marked reads again for each level.
 * The content and VuePress trees' pages reach a few thousand; a page of the largest size (8 MB) with every
 * line three levels deep stays under it.
 */
export const MAX_NESTED_TEXT = 32 * 1024 * 1024;

/**
 * Characters in one block of lines without a blank line between them. marked matches whole blocks with
 * regular expressions that run out of stack on a block of several megabytes; a paragraph a person writes
 * is a few hundred characters, a long generated table a few hundred kilobytes.
 */
export const MAX_BLOCK = 2 * 1024 * 1024;

/**
 * What marked's inline pass may do on one page, in characters it scans. Two things there cost the square
 * of a text's length: every marker run (`*`, `_`, `~`) that can open an emphasis makes it scan ahead to the
 * next run that could close it (over the whole nested structure in `*a *a … b* b*`), and every piece of
 * text between markers makes it scan the rest of its word in case it is an e-mail address (`**a` repeated
 * is one 1 MB word of 700,000 pieces). Both are counted for every piece of text the pass reads (a
 * paragraph, a heading, a cell, the inside of an emphasis, again). The content and VuePress trees' pages
 * count a few thousand at most; a synthetic 8 MB page with three emphases in every sentence about 6 million.
 */
export const MAX_INLINE_WORK = 48 * 1024 * 1024;

/** A page past a limit: where, and what to tell its writer. */
export interface BoundProblem {
  /** Character offset in the page's body. */
  offset: number;
  message: string;
}

/** What the pass over a page's lines learns of it: a problem, or where a later one would be. */
export interface PageShape {
  problem?: BoundProblem;
  /** The deepest line's levels (the first past the limit, if any), and the nested text (see MAX_NESTED_TEXT). */
  depth: number;
  nestedText: number;
  /** Start of the paragraph that costs the inline pass most: where an overrun of MAX_INLINE_WORK points. */
  densestEmphasis: number;
}

const THEMATIC_BREAK = /^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const FENCE_OPEN = /^(`{3,}|~{3,})/;

/**
 * One pass over the lines of a page (`\n` line endings): how deep each is nested, counting each `>`, each
 * list marker and each two columns of indentation as a level (an upper bound of marked's nesting, as a
 * list's content is indented at least two columns per level). Lines inside a fenced code block count at
 * the fence's depth, whatever their own indentation.
 */
export function pageShape(source: string): PageShape {
  let nestedText = 0;
  let deepest = { depth: 0, offset: 0 };
  let fence: { marker: string; depth: number } | undefined;
  let paragraph = { start: -1, work: 0, length: 0 };
  let densest = { offset: 0, work: -1 };
  let largest = { offset: 0, length: 0 };
  const endParagraph = () => {
    if (paragraph.length > largest.length) largest = { offset: paragraph.start, length: paragraph.length };
    if (paragraph.start >= 0 && paragraph.work > densest.work)
      densest = { offset: paragraph.start, work: paragraph.work };
    paragraph = { start: -1, work: 0, length: 0 };
  };
  for (let start = 0; start <= source.length;) {
    const newline = source.indexOf('\n', start);
    const end = newline < 0 ? source.length : newline;
    const line = source.slice(start, end);
    if (fence) {
      nestedText += (line.length + 1) * fence.depth;
      const close = /^[\s>]*(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
      if (close && close[0] === fence.marker[0] && close.length >= fence.marker.length) fence = undefined;
    } else {
      const { depth, rest } = nesting(line);
      nestedText += (line.length + 1) * depth;
      // The first line past the limit is the one to report; below it, the deepest.
      if (depth > deepest.depth && deepest.depth <= MAX_NESTING) deepest = { depth, offset: start };
      const opens = FENCE_OPEN.exec(rest)?.[1];
      if (opens) fence = { marker: opens, depth };
      if (opens || rest.trim() === '') endParagraph();
      else {
        if (paragraph.start < 0) paragraph.start = start;
        paragraph.length += line.length + 1;
        paragraph.work += inlineWork(line);
      }
    }
    if (newline < 0) break;
    start = newline + 1;
  }
  endParagraph();
  const shape = { depth: deepest.depth, nestedText, densestEmphasis: densest.offset };
  if (deepest.depth > MAX_NESTING) {
    const message = `lists and quotes are nested ${deepest.depth} levels deep here; a page may nest ${MAX_NESTING} (each ">", list marker and two spaces of indentation is a level)`;
    return { ...shape, problem: { offset: deepest.offset, message } };
  }
  if (largest.length > MAX_BLOCK) {
    const message = `this block of ${megabytes(largest.length)} has no blank line; blocks are limited to ${megabytes(MAX_BLOCK)}: split it with blank lines`;
    return { ...shape, problem: { offset: largest.offset, message } };
  }
  if (nestedText > MAX_NESTED_TEXT) {
    const message = `too much text nested in lists and quotes (${deepest.depth} levels deep here) for the markdown parser: flatten the nesting or split the page`;
    return { ...shape, problem: { offset: deepest.offset, message } };
  }
  return shape;
}

/** The levels a line's start opens (quote and list markers, indentation) and the text after them. */
function nesting(line: string): { depth: number; rest: string } {
  let depth = 0;
  let columns = 0;
  let listed = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === ' ') {
      columns++;
      i++;
    } else if (c === '\t') {
      columns += 4 - (columns % 4);
      i++;
    } else if (c === '>') {
      depth++;
      i += line[i + 1] === ' ' ? 2 : 1;
    } else {
      const marker = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/.exec(line.slice(i, i + 12))?.[0];
      // `- - -` is a rule, not three lists; once is enough to tell, at the first marker of the line.
      if (!marker || (!listed && THEMATIC_BREAK.test(line.slice(i)))) break;
      listed = true;
      depth++;
      i += marker.length;
    }
  }
  return { depth: depth + Math.floor(columns / 2), rest: line.slice(i) };
}

const megabytes = (length: number) => `${(length / 1048576).toFixed(1)} MB`;

const isSpace = (c: number) => c === 32 || c === 9 || c === 10;
/** `*`, `_`, `~`. */
const isMarker = (c: number) => c === 42 || c === 95 || c === 126;
/** What ends a piece of text inside a word: a marker, a backtick or `!`. */
const splitsText = (c: number) => isMarker(c) || c === 96 || c === 33;
/** The characters of an e-mail address's local part, which marked's text rule scans for an `@`, by code. */
const EMAIL_CHAR = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?_`{|}~-") {
  EMAIL_CHAR[c.charCodeAt(0)] = 1;
}

/**
 * The scanning the inline pass does on one text (see MAX_INLINE_WORK): for each opening marker run, the
 * distance to the next run of its character that could close it (none: marked sees there is none and
 * skips it); for each word, its pieces times its length.
 */
export function inlineWork(text: string): number {
  let work = 0;
  // Where the next possible closer of each marker starts, walking back from the end.
  const nextCloser: Record<number, number> = { 42: -1, 95: -1, 126: -1 };
  let wordEnd = text.length;
  let pieces = 0;
  for (let i = text.length - 1; i >= -1; i--) {
    const c = i >= 0 ? text.charCodeAt(i) : 32;
    if (i < 0 || EMAIL_CHAR[c] !== 1) {
      work += pieces * (wordEnd - i - 1);
      pieces = 0;
      wordEnd = i;
      if (i < 0) break;
      continue;
    }
    if (splitsText(c)) pieces++;
    if (!isMarker(c) || text.charCodeAt(i - 1) === c) continue;
    // `i` starts a run of `c`.
    let end = i;
    while (text.charCodeAt(end + 1) === c) end++;
    const next = text.charCodeAt(end + 1);
    const closer = nextCloser[c] ?? -1;
    if (end + 1 < text.length && !isSpace(next) && closer > end) work += closer - i;
    if (i > 0 && !isSpace(text.charCodeAt(i - 1))) nextCloser[c] = i;
  }
  return work;
}

/**
 * Counts the inline work (MAX_INLINE_WORK) of one page, from the `emStrongMask` hook, which marked calls
 * once for each piece of text its inline pass reads (a paragraph, a heading, a cell, the inside of an
 * emphasis, again), and stops the page once past its budget. marked renders one page at a time (the page
 * pass is synchronous), so one meter serves the build: `start` sets it for the next page.
 */
export class EmphasisMeter {
  private spent = 0;
  private budget = Infinity;

  start(budget = MAX_INLINE_WORK): void {
    this.spent = 0;
    this.budget = budget;
  }

  /** The hook itself: returns the text as it came. */
  readonly hook = (masked: string): string => {
    this.spent += inlineWork(masked);
    if (this.spent > this.budget) throw new EmphasisOverrun();
    return masked;
  };
}

/** Thrown out of marked's lexer when a page's inline work is past its budget. */
export class EmphasisOverrun extends Error {
  constructor() {
    super('too many emphasis markers (* _ ~) in long words or nested emphasis for the markdown parser');
  }
}
