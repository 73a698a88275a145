import type { Token, Tokens } from 'marked';
import { plainText } from './tokens';

/**
 * A page's search sections: its intro (level 1, the text before the first h2/h3) and one section per h2
 * and h3 with the text under it, as the search index ships them.
 */
export interface SearchSection {
  level: 1 | 2 | 3;
  heading: string;
  slug: string;
  text: string;
}

/** Adds a top-level token's text to the current search section, starting a new one at each h2/h3. */
export function collectSection(token: Token, result: { sections: SearchSection[]; firstParagraph: string }): void {
  if (token.type === 'heading') {
    const heading = token as Tokens.Heading & { slug: string };
    if (heading.depth === 2 || heading.depth === 3) {
      result.sections.push({ level: heading.depth, heading: plainText(heading.tokens), slug: heading.slug, text: '' });
    }
    return;
  }
  const text = plainText([token]);
  if (!text) return;
  if (token.type === 'paragraph' && result.firstParagraph === '') result.firstParagraph = text;
  const section = result.sections[result.sections.length - 1];
  if (section) section.text = section.text ? `${section.text} ${text}` : text;
}
