/** The prose of a built fragment, as the content checks read it: blocks of text with their links kept. */

/**
 * Each block of prose (paragraph, list item, table cell) with each link written after its text as ⟦href⟧.
 * `boldMark` stands for `<strong>` where a check tells a label in bold from plain words.
 */
export function proseBlocks(html: string, boldMark = ''): string[] {
  const body = html.replace(/<pre\b[\s\S]*?<\/pre>/g, ' ').replace(/<h[1-6]\b[\s\S]*?<\/h[1-6]>/g, ' ');
  return [...body.matchAll(/<(p|li|td)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((m) =>
    decodeEntities(
      (m[2] ?? '')
        .replace(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, '$2⟦$1⟧')
        .replace(/<\/?strong>/g, boldMark)
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

/** The entities the markdown renderer writes, as the text a reader sees. */
export function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
