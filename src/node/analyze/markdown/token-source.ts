/* Where a token's text is in the page's markdown, and what that text says beyond the token's fields. */
import type { Tokens } from 'marked';

/**
 * `## Title {#custom-id}`, as VitePress writes a heading's own id (the API reference pages give each
 * operation one): the id, taken out of the heading's text.
 */
export function explicitId(heading: Tokens.Heading): string | undefined {
  const last = heading.tokens.at(-1);
  if (last?.type !== 'text') return undefined;
  const text = last as Tokens.Text;
  const match = /\s*\{#([A-Za-z][\w-]*)\}\s*$/.exec(text.text);
  if (!match) return undefined;
  text.text = text.text.slice(0, match.index);
  text.raw = text.raw.slice(0, text.raw.length - match[0].length);
  if (text.tokens) text.tokens = [{ type: 'text', raw: text.raw, text: text.text }];
  return match[1];
}

/** Offset of a token's raw text in the body, searched from the cursor within its parent. */
export function locate(body: string, raw: string, from: number, to: number): number {
  if (!raw) return from;
  const exact = startBefore(body, raw, from, to);
  if (exact >= 0) return exact;
  const firstLine = raw.split('\n')[0]?.trim() ?? '';
  const partial = firstLine ? startBefore(body, firstLine, from, to) : -1;
  return partial >= 0 ? partial : from;
}

/**
 * The first offset in [from, to) where `text` starts in `body`, or -1. Searched within that range only: a
 * nested list item's text is not in the body as written (its indentation is gone), and searching on to
 * the end of the page for each one made a page of many lists cost the square of its length.
 */
function startBefore(body: string, text: string, from: number, to: number): number {
  const found = body.slice(from, to - 1 + text.length).indexOf(text);
  return found < 0 ? -1 : from + found;
}

export function isClosedFence(raw: string): boolean {
  const lines = raw.trimEnd().split('\n');
  const open = /^\s*(`{3,}|~{3,})/.exec(lines[0] ?? '')?.[1] ?? '```';
  const last = lines.length > 1 ? (lines[lines.length - 1] ?? '').trim() : '';
  return last.startsWith(open) && /^(`+|~+)$/.test(last);
}
