/**
 * The start of a text, cut at a word, with an ellipsis when something was cut: a page's description when
 * its frontmatter has none (from its first paragraph), and the section excerpts of the search index.
 */
export function excerpt(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > length * 0.7 ? space : length).replace(/[\s,.;:(·]+$/, '')}…`;
}
