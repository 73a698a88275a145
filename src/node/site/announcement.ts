import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const inline = new Marked({ async: false });

/**
 * The announcement's text as HTML: inline markdown reduced to emphasis, strong, struck-through text and
 * code. A link written in the text keeps its words only; the bar's own `link` is where it leads.
 */
export function announcementHtml(text: string): string {
  const html = inline.parseInline(text) as string;
  return sanitizeHtml(html, { allowedTags: ['em', 'strong', 'del', 'code'], allowedAttributes: {} });
}
