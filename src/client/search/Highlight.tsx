import { Fragment, type ReactNode } from 'react';
import { foldAccents } from '../../shared/search-text';

/**
 * Marks the query words in a text where a word of the text starts with them ("limit" in "Rate limits",
 * "cafe" in "Café"). The words are compared as plain strings (no regular expression is built from the
 * query) and React escapes everything, so a query is never interpreted as HTML.
 */
export function Highlight({ text, terms }: { text: string; terms: readonly string[] }) {
  const ranges = matchRanges(text, terms);
  if (ranges.length === 0) return <>{text}</>;
  const parts: ReactNode[] = [];
  let position = 0;
  for (const [start, end] of ranges) {
    if (start > position) parts.push(<Fragment key={`t${position}`}>{text.slice(position, start)}</Fragment>);
    parts.push(<mark key={`m${start}`}>{text.slice(start, end)}</mark>);
    position = end;
  }
  if (position < text.length) parts.push(<Fragment key="rest">{text.slice(position)}</Fragment>);
  return <>{parts}</>;
}

/** Ranges of the text, in order and not overlapping, that a term matches at the start of a word. */
export function matchRanges(text: string, terms: readonly string[]): [number, number][] {
  // Fold the text one character at a time, remembering where each folded character came from.
  let folded = '';
  const origin: number[] = [];
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i) ?? 0;
    const char = String.fromCodePoint(code);
    const plain = foldAccents(char).toLowerCase();
    for (let k = 0; k < plain.length; k++) origin.push(i);
    folded += plain;
    i += char.length;
  }
  origin.push(text.length);

  const wanted = [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
  const ranges: [number, number][] = [];
  let at = 0;
  while (at < folded.length && wanted.length > 0) {
    let best = -1;
    let length = 0;
    for (const term of wanted) {
      let found = folded.indexOf(term, at);
      while (found >= 0 && !startsWord(text, folded, origin, found)) found = folded.indexOf(term, found + 1);
      if (found >= 0 && (best < 0 || found < best || (found === best && term.length > length))) {
        best = found;
        length = term.length;
      }
    }
    if (best < 0) break;
    const start = origin[best] ?? 0;
    const end = origin[best + length] ?? text.length;
    ranges.push([start, end]);
    at = best + length;
  }
  return ranges;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether the folded position starts a word: after a non-letter, or a capital after a lowercase letter. */
function startsWord(text: string, folded: string, origin: readonly number[], position: number): boolean {
  if (position === 0) return true;
  if (!WORD_CHAR.test(folded[position - 1] ?? '')) return true;
  const here = text[origin[position] ?? 0] ?? '';
  const before = text[origin[position - 1] ?? 0] ?? '';
  return here !== here.toLowerCase() && before === before.toLowerCase() && before !== before.toUpperCase();
}
