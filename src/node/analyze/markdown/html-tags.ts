import { Parser } from 'htmlparser2';

/**
 * The options sanitize-html gives htmlparser2 by default, passed to it explicitly (sanitize.ts) and used
 * here: the tags a writer is warned about and whose URLs are rewritten are the ones the sanitizer reads.
 * (Only plain options: @types/sanitize-html types them against an older htmlparser2 of its own.)
 */
export const HTML_PARSER_OPTIONS = { decodeEntities: true } as const;

export interface RawAttribute {
  /** Lower-cased, as the parser reads it. */
  name: string;
  /** The value as the parser reads it, entities decoded; '' when the attribute has none. */
  value: string;
  /** The value as written, without its quotes and with its entities. */
  written: string;
  /** Offset of the attribute name in the parsed text. */
  offset: number;
  /** Span of the value as written, quotes included; both equal the attribute's end when it has no value. */
  valueStart: number;
  valueEnd: number;
}

export interface RawTag {
  name: string;
  /** Offset of the tag's `<`. */
  offset: number;
  /**
   * Just after the element's end tag; undefined when the parser closes it without one (a void element, an
   * element a later tag or its parent's end tag closes, or one still open where the text ends).
   */
  end?: number;
  /** In the order written; a repeated name is left out, as the parser keeps only the first. */
  attributes: RawAttribute[];
}

/**
 * The opening tags of a raw HTML snippet, in order, as htmlparser2 reads them: not those inside comments
 * or inside elements it reads as text (`<script>`, `<textarea>`…), nor those the parser implies (`</p>`
 * alone opens one). A tag the snippet ends in before its `>` is one too, with the attributes read so far:
 * the page's HTML goes on after the snippet, and the sanitizer reads that tag up to a later `>`.
 */
export function openingTags(html: string): RawTag[] {
  const tags: RawTag[] = [];
  /** The parser's open elements, innermost last, with the tag reported for each (none for implied ones). */
  const open: { name: string; tag?: RawTag }[] = [];
  /** The tag whose name the parser has read and whose `>` it has not. */
  let current: RawTag | undefined;
  const parser = new Parser(
    {
      onopentagname(name) {
        current = { name, offset: tagStart(html, parser, name), attributes: [] };
        open.push({ name });
      },
      onattribute(name, value, quote) {
        if (!current || current.attributes.some((a) => a.name === name)) return;
        current.attributes.push(attributeAt(html, parser.startIndex, parser.endIndex, name, value, quote));
      },
      onopentag(_name, _attribs, isImplied) {
        const entry = open[open.length - 1];
        if (current && entry && !isImplied) {
          tags.push(current);
          entry.tag = current;
        }
        current = undefined;
      },
      onclosetag(name, isImplied) {
        // The parser closes innermost first; a void tag the text ends inside is never closed, so pass it over.
        let entry = open.pop();
        while (entry && entry.name !== name) entry = open.pop();
        if (entry?.tag && !isImplied) entry.tag.end = endTagEnd(html, parser.endIndex);
      },
    },
    HTML_PARSER_OPTIONS,
  );
  parser.end(html);
  if (current) tags.push(current);
  return tags;
}

/**
 * The offset of a tag's `<`, from the end of its name where the parser has just read it. The parser's own
 * start index is off by the rest of an end tag just before (`</a ><b>`).
 */
function tagStart(html: string, parser: Parser, name: string): number {
  const start = parser.endIndex - name.length - 1;
  // Lower-casing kept the name's length, as it does for every name but a few non-ASCII ones.
  return html[start] === '<' && html.slice(start + 1, parser.endIndex).toLowerCase() === name
    ? start
    : parser.startIndex;
}

/**
 * The parser's end index of an end tag is where its name ends; the tag itself ends at the next `>`, as the
 * parser skips whatever stands between (`</script foo>`), or with the text.
 */
function endTagEnd(html: string, nameEnd: number): number {
  const close = html.indexOf('>', nameEnd);
  return close < 0 ? html.length : close + 1;
}

/**
 * One attribute from the parser's event: the parser gives the span of the whole attribute (name to the end
 * of its value) and how the value was quoted, which is enough to find the value as written.
 */
function attributeAt(
  html: string,
  start: number,
  end: number,
  name: string,
  value: string,
  quote: string | null | undefined,
): RawAttribute {
  let valueStart = end;
  if (quote) valueStart = html.lastIndexOf(quote, end - 2);
  else if (quote === null) {
    // Unquoted: the value follows the `=` after the name (a name may begin with `=`, never hold one after).
    const separator = /=\s*/.exec(html.slice(start + 1, end));
    valueStart = start + 1 + (separator ? separator.index + separator[0].length : 0);
  }
  const written = html.slice(valueStart, end);
  return { name, value, written: quote ? written.slice(1, -1) : written, offset: start, valueStart, valueEnd: end };
}
