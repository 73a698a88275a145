/**
 * The average advance of a character of the site's sans-serif font, as a share of its size, and a little
 * more for bold text. The build has no browser to measure text with, so a label's width is estimated from
 * its length; the share is on the wide side, so that estimated boxes hold their text rather than clip it.
 */
const CHARACTER_WIDTH = 0.58;
const BOLD_CHARACTER_WIDTH = 0.62;

/** The estimated width of a line of text, in the units of its font size. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  return [...text].length * fontSize * (bold ? BOLD_CHARACTER_WIDTH : CHARACTER_WIDTH);
}

/**
 * A label cut into lines no wider than `width`: at `<br>` (as mermaid writes a line break), then between
 * words, and inside a word only when the word alone is wider.
 */
export function wrapText(text: string, width: number, fontSize: number, bold = false): string[] {
  const perLine = Math.max(1, Math.floor(width / (fontSize * (bold ? BOLD_CHARACTER_WIDTH : CHARACTER_WIDTH))));
  const lines: string[] = [];
  for (const paragraph of text.split(/<br\s*\/?>/i)) {
    let line = '';
    for (const word of paragraph.trim().split(/\s+/).filter(Boolean)) {
      const joined = line === '' ? word : `${line} ${word}`;
      if ([...joined].length <= perLine) {
        line = joined;
        continue;
      }
      if (line !== '') lines.push(line);
      const characters = [...word];
      while (characters.length > perLine) lines.push(characters.splice(0, perLine).join(''));
      line = characters.join('');
    }
    lines.push(line);
  }
  return lines;
}
