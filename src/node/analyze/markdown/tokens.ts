import type { Token, Tokens } from 'marked';
import { CELL_SEPARATOR } from '../../../shared/search-text';
import { decodeEntities } from './escape';

/** The child tokens of any token, including list items and table cells, in document order. */
export function childTokens(token: Token): Token[] {
  switch (token.type) {
    case 'list':
      return (token as Tokens.List).items;
    case 'table': {
      const table = token as Tokens.Table;
      return [...table.header, ...table.rows.flat()].flatMap((cell) => cell.tokens);
    }
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? token.tokens : [];
  }
}

/** Plain text of a token tree: what a reader reads, without markup. */
export function plainText(tokens: readonly Token[]): string {
  return rawText(tokens).replace(/\s+/g, ' ').trim();
}

/**
 * The text of a token tree with its whitespace as it comes; each part trimmed as `plainText` would trim
 * it. Whitespace is collapsed once, for the whole tree, by `plainText`: collapsing it at every level
 * went over a nested list's text once per level.
 */
function rawText(tokens: readonly Token[]): string {
  let out = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'code': {
        // A diagram is searched by its labels, not its mermaid source (code-fence.ts).
        const labels = (token as Tokens.Code & { labels?: string[] }).labels;
        out += `${labels ? labels.join(' ') : (token as Tokens.Code).text}\n`;
        break;
      }
      case 'codespan':
      case 'escape':
        out += decodeEntities((token as Tokens.Codespan).text);
        break;
      case 'constant':
        out += String((token as Tokens.Generic)['value'] ?? token.raw);
        break;
      case 'html':
        out += ' ';
        break;
      case 'br':
      case 'space':
      case 'hr':
        out += ' ';
        break;
      case 'table': {
        // Cells keep a visible boundary, so an excerpt reads "Symptom · Cause" rather than "SymptomCause".
        const table = token as Tokens.Table;
        const cells = [...table.header, ...table.rows.flat()].map((cell) => rawText(cell.tokens).trim());
        out += `${cells.filter((cell) => cell !== '').join(CELL_SEPARATOR)} `;
        break;
      }
      case 'text': {
        const t = token as Tokens.Text;
        // A block-level text (a tight list item's line) has tokens of its own and ends a block.
        out += t.tokens ? `${rawText(t.tokens).trim()} ` : decodeEntities(t.text);
        break;
      }
      default: {
        const children = childTokens(token);
        if (children.length > 0) {
          out += rawText(children).trim();
          if (token.type !== 'link' && token.type !== 'strong' && token.type !== 'em' && token.type !== 'del') {
            out += ' ';
          }
        } else if ('text' in token && typeof token.text === 'string') {
          out += decodeEntities(token.text);
        }
      }
    }
  }
  return out;
}
