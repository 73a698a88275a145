import { Parser } from 'htmlparser2';

/**
 * Checks a page fragment with a real HTML tokenizer (htmlparser2, the one sanitize-html uses), in three
 * kinds of problem:
 * - balance: every element opened is closed, in order, by an explicit end tag (void elements excepted) —
 *   htmlparser2 alone closes unclosed elements silently and drops stray end tags, so the stack here is
 *   kept from the explicit tags only;
 * - safety: nothing that runs code, loads another document, re-parses its content or breaks the CSP
 *   (event handlers, inline styles, javascript:/vbscript:/data: URLs);
 * - restructuring: the parts of the HTML5 tree-construction rules that make a browser build a different
 *   tree from the markup (an element that closes the <p> it sits in, <a> in <a>, <li> in <li>, table
 *   content that is fostered out).
 */
export interface HtmlProblems {
  balance: string[];
  safety: string[];
  restructuring: string[];
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements that run code, load another document or re-parse their content as text: never in a fragment. */
const UNSAFE_ELEMENTS = new Set([
  'applet',
  'base',
  'embed',
  'form',
  'frame',
  'frameset',
  'iframe',
  'link',
  'math',
  'meta',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'plaintext',
  'portal',
  'script',
  'style',
  'svg',
  'template',
  'textarea',
  'title',
  'xmp',
]);

/**
 * SVG and MathML the build drew (a mermaid diagram in its figure; a KaTeX formula's MathML, and the SVG
 * of its stretchy marks, in the formula's spans): the sanitizer keeps no other
 * (src/node/analyze/markdown/drawn-markup.ts). `open` holds the open elements as `tag.class`, innermost last.
 */
function isDrawn(tag: string, open: readonly string[]): boolean {
  const parent = open.at(-1);
  const inFormula = (part: string) => open.some((element, i) => element === part && open[i - 1] === 'span.katex');
  if (tag === 'math') return parent === 'span.katex-mathml' && inFormula('span.katex-mathml');
  return tag === 'svg' && (parent === 'figure.diagram' || inFormula('span.katex-html'));
}

/** Attributes a browser loads or navigates to (`srcset` holds a list of them). */
const URL_ATTRIBUTES = new Set([
  'action',
  'background',
  'cite',
  'codebase',
  'data',
  'formaction',
  'href',
  'longdesc',
  'ping',
  'poster',
  'src',
  'srcset',
  'xlink:href',
]);

/** Start tags that close an open <p> (HTML5 "in body" insertion mode, no-quirks documents). */
const CLOSES_P = new Set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing table hr xmp plaintext li dd dt'.split(
    ' ',
  ),
);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const SCOPE = new Set(['applet', 'caption', 'html', 'table', 'td', 'th', 'marquee', 'object', 'template']);
const BUTTON_SCOPE = new Set([...SCOPE, 'button']);
/** The "special" category, which stops the search for an open <li>, <dd> or <dt> (less address, div, p). */
const SPECIAL_STOPS = new Set(
  'applet area article aside base basefont bgsound blockquote body br button caption center col colgroup details dir dl embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen link listing main marquee menu meta nav noembed noframes noscript object ol param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp'.split(
    ' ',
  ),
);
/** What each table element may directly contain; anything else is moved out of the table by the parser. */
const TABLE_CHILDREN: Record<string, ReadonlySet<string>> = {
  table: new Set(['caption', 'colgroup', 'thead', 'tbody', 'tfoot', 'tr']),
  thead: new Set(['tr']),
  tbody: new Set(['tr']),
  tfoot: new Set(['tr']),
  tr: new Set(['td', 'th']),
  colgroup: new Set(['col']),
};
/** Table parts and the parents they need; outside them the parser ignores the tag. */
const TABLE_PARENTS: Record<string, ReadonlySet<string>> = {
  caption: new Set(['table']),
  colgroup: new Set(['table']),
  thead: new Set(['table']),
  tbody: new Set(['table']),
  tfoot: new Set(['table']),
  tr: new Set(['table', 'thead', 'tbody', 'tfoot']),
  td: new Set(['tr']),
  th: new Set(['tr']),
  col: new Set(['colgroup']),
};
const RUBY_PARTS = new Set(['rb', 'rp', 'rt', 'rtc']);

/** True when `target` is open with none of `boundaries` above it (the spec's "has an element in scope"). */
function inScope(stack: readonly string[], target: string, boundaries: ReadonlySet<string>): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const name = stack[i] ?? '';
    if (name === target) return true;
    if (boundaries.has(name)) return false;
  }
  return false;
}

/** An open list item of the same family, found before a "special" element ends the search. */
function openListItem(stack: readonly string[], family: ReadonlySet<string>): string | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const name = stack[i] ?? '';
    if (family.has(name)) return name;
    if (SPECIAL_STOPS.has(name)) return undefined;
  }
  return undefined;
}

/** Why a browser would not nest this start tag where the markup puts it, or undefined when it would. */
function restructuring(stack: readonly string[], tag: string): string | undefined {
  const top = stack[stack.length - 1];
  if (top !== undefined && TABLE_CHILDREN[top] && !TABLE_CHILDREN[top].has(tag)) return `<${tag}> directly in <${top}>`;
  const parents = TABLE_PARENTS[tag];
  if (parents && (top === undefined || !parents.has(top))) return `<${tag}> outside ${[...parents].join('/')}`;
  if (CLOSES_P.has(tag) && inScope(stack, 'p', BUTTON_SCOPE)) return `<${tag}> inside <p>`;
  if (HEADINGS.has(tag) && top !== undefined && HEADINGS.has(top)) return `<${tag}> inside <${top}>`;
  if (tag === 'a' && inScope(stack, 'a', new Set(['td', 'th', 'caption', 'applet', 'object', 'marquee', 'template'])))
    return '<a> inside <a>';
  if (tag === 'button' && inScope(stack, 'button', SCOPE)) return '<button> inside <button>';
  if (tag === 'li' && openListItem(stack, new Set(['li']))) return '<li> inside <li> with no list between';
  if (tag === 'dd' || tag === 'dt') {
    const open = openListItem(stack, new Set(['dd', 'dt']));
    if (open) return `<${tag}> inside <${open}> with no list between`;
  }
  if (RUBY_PARTS.has(tag) && top !== undefined && RUBY_PARTS.has(top) && inScope(stack, 'ruby', SCOPE))
    return `<${tag}> closes the <${top}> it is in`;
  return undefined;
}

/** Browsers drop tab, newline and other control characters from URLs before reading the scheme. */
function scheme(url: string): string {
  const visible = [...url].filter((c) => c.charCodeAt(0) > 0x20 && c !== '\u007f').join('');
  return /^([a-z][a-z0-9+.-]*):/i.exec(visible)?.[1]?.toLowerCase() ?? '';
}

const UNSAFE_SCHEMES = new Set(['javascript', 'vbscript', 'data']);

function attributeProblems(tag: string, attributes: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    if (/^on/i.test(name)) problems.push(`event handler ${name}="${value}" on <${tag}>`);
    // The CSP has style-src 'self' without 'unsafe-inline': an inline style is a violation.
    if (name === 'style') problems.push(`inline style on <${tag}>`);
    if (!URL_ATTRIBUTES.has(name)) continue;
    const urls = name === 'srcset' ? value.split(',').map((c) => c.trim().split(/\s+/)[0] ?? '') : [value];
    for (const url of urls) {
      if (UNSAFE_SCHEMES.has(scheme(url))) problems.push(`${scheme(url)}: URL in ${name} of <${tag}>`);
    }
  }
  return problems;
}

/** Every problem found in a fragment, by kind; all three lists are empty when the fragment is fine. */
export function htmlProblems(html: string): HtmlProblems {
  const found: HtmlProblems = { balance: [], safety: [], restructuring: [] };
  const stack: string[] = [];
  // Each open element as `tag.class`, beside the stack: where a drawing or a formula sits.
  const openElements: string[] = [];

  const parser = new (class extends Parser {
    // The tokenizer's explicit end tags; htmlparser2's own stack would hide the unmatched ones.
    override onclosetag(start: number, endIndex: number): void {
      closeTag(html.slice(start, endIndex).toLowerCase());
      super.onclosetag(start, endIndex);
    }
  })(
    {
      onopentag(name, attributes, isImplied) {
        // Implied opens come from a stray </p> or </br>, already reported by closeTag.
        if (isImplied) return;
        if (UNSAFE_ELEMENTS.has(name) && !isDrawn(name, openElements)) found.safety.push(`<${name}> element`);
        found.safety.push(...attributeProblems(name, attributes));
        const why = restructuring(stack, name);
        if (why) found.restructuring.push(why);
        if (!VOID.has(name)) {
          stack.push(name);
          openElements.push(`${name}.${attributes['class'] ?? ''}`);
        }
      },
      ontext(text) {
        const top = stack[stack.length - 1];
        if (top !== undefined && TABLE_CHILDREN[top] && text.trim() !== '') {
          found.restructuring.push(`text ${JSON.stringify(text.slice(0, 40))} directly in <${top}>`);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  function closeTag(name: string): void {
    if (VOID.has(name)) {
      found.balance.push(`end tag </${name}> of a void element`);
      return;
    }
    if (stack[stack.length - 1] === name) {
      stack.pop();
      openElements.pop();
      return;
    }
    const at = stack.lastIndexOf(name);
    if (at < 0) {
      found.balance.push(`stray </${name}>`);
      return;
    }
    found.balance.push(`</${name}> closes <${name}> while <${stack.slice(at + 1).join('>, <')}> are still open`);
    stack.length = at;
    openElements.length = at;
  }

  parser.parseComplete(html);
  if (stack.length > 0) found.balance.push(`never closed: <${stack.join('>, <')}>`);
  return found;
}
