import { parseLineRanges } from './line-ranges';

/** What a fence's info string says: ```` ```ts{1,3}:line-numbers=2 ````. */
export interface CodeInfo {
  /** The language as written (`ts`), '' when none. */
  lang: string;
  /** The lines to mark: `{1,3}`. */
  lines: Set<number>;
  /**
   * Whether to number the lines, when the fence says so (`:line-numbers`, `:no-line-numbers`, as VitePress
   * writes it); undefined leaves it to the site's `lineNumbers` setting.
   */
  lineNumbers?: boolean;
  /** The first line's number: `:line-numbers=2`. */
  start: number;
}

const LINE_NUMBERS = /:(no-)?line-numbers(?:=(\d+))?/;

/**
 * Reads a fence's info string. The language ends at the first space, brace or colon, so `js {1,3}`,
 * `js{1,3}`, `ts:line-numbers {1}` and `ts{1}:line-numbers=5` are all read alike.
 */
export function parseCodeInfo(info: string): CodeInfo {
  const [, lang = '', rest = ''] = /^([^\s{:]*)([\s\S]*)$/.exec(info.trim()) ?? [];
  const numbers = LINE_NUMBERS.exec(rest);
  const ranges = rest.replace(LINE_NUMBERS, '').replace(/\s+/g, '');
  const lines = parseLineRanges(ranges) ?? new Set<number>();
  const start = numbers?.[2] ? Math.max(1, Number(numbers[2])) : 1;
  return { lang, lines, start, ...(numbers ? { lineNumbers: !numbers[1] } : {}) };
}

/**
 * The languages a page's fences name, for a highlighter that loads a grammar when a page first needs it
 * (`npm run dev`, which highlights each block as the page pass meets it) to load them before the pass.
 */
export function fenceLanguages(markdown: string): string[] {
  const found = new Set<string>();
  // Before the fence: indentation, quote markers and list markers (a list item may open with a fence).
  const fence = /^(?:[ \t>]|[-*+][ \t]|\d{1,9}[.)][ \t])*(?:`{3,}|~{3,})[ \t]*([^\s{:`]+)/gm;
  for (const match of markdown.matchAll(fence)) found.add(match[1]!);
  return [...found];
}
