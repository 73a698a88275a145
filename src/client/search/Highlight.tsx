import { Fragment, type ReactNode } from 'react';

/**
 * Marks the query words in a text. The words are matched as plain strings (no regular expression is
 * built from the query) and React escapes everything, so a query is never interpreted as HTML.
 */
export function Highlight({ text, terms }: { text: string; terms: string[] }) {
  const lower = text.toLowerCase();
  const parts: ReactNode[] = [];
  let position = 0;
  while (position < text.length && terms.length > 0) {
    let best = -1;
    let length = 0;
    for (const term of terms) {
      const at = lower.indexOf(term, position);
      if (at >= 0 && (best < 0 || at < best)) {
        best = at;
        length = term.length;
      }
    }
    if (best < 0) break;
    parts.push(<Fragment key={`t${position}`}>{text.slice(position, best)}</Fragment>);
    parts.push(<mark key={`m${best}`}>{text.slice(best, best + length)}</mark>);
    position = best + length;
  }
  parts.push(<Fragment key="rest">{text.slice(position)}</Fragment>);
  return <>{parts}</>;
}
