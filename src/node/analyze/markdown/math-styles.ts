/**
 * KaTeX's HTML places each glyph with inline `style` attributes, which the site's Content-Security-Policy
 * (no 'unsafe-inline' styles) would have the browser ignore. Each declaration becomes a class that names
 * it, `ks-height_1.2em` for `height:1.2em`, and the site's stylesheet gets one rule per class its pages use
 * (`mathClassesCss`): the class says its own rule, so a page (and a page from the render cache) needs
 * nothing else to carry it.
 */

/**
 * The properties KaTeX writes inline (its lengths, its `\color`, `\colorbox` and `\fcolorbox`); a class
 * for another is not made into a rule, so a writer's raw HTML cannot style a page through one.
 */
const PROPERTIES = new Set([
  'height',
  'width',
  'min-width',
  'top',
  'bottom',
  'left',
  'position',
  'vertical-align',
  'margin-left',
  'margin-right',
  'padding-left',
  'border-width',
  'border-style',
  'border-top-width',
  'border-bottom-width',
  'border-right-width',
  'border-color',
  'color',
  'background-color',
]);

/** A value a class can name and a rule can hold as it is: a length, a keyword, a colour. */
const VALUE = /^[A-Za-z0-9.%#-]+$/;

const CLASS = /(?<=[" ])ks-([a-z-]+)_([A-Za-z0-9.%#-]+)(?=[" ])/g;

/** The class of one declaration, or undefined for one KaTeX does not write (it is left out). */
function classOf(declaration: string): string | undefined {
  const at = declaration.indexOf(':');
  const property = declaration.slice(0, at).trim();
  const value = declaration.slice(at + 1).trim();
  return at > 0 && PROPERTIES.has(property) && VALUE.test(value) ? `ks-${property}_${value}` : undefined;
}

/** KaTeX's HTML with each element's `style` turned into classes, added to those it has. */
export function styleAsClasses(html: string): string {
  return html.replace(
    /<([a-z]+)((?: [a-zA-Z-]+="[^"]*")*) style="([^"]*)"([^>]*)>/g,
    (_, tag, before, style, after) => {
      const classes = (style as string).split(';').flatMap((d) => (d.trim() ? (classOf(d) ?? []) : []));
      const attributes = `${before as string}${after as string}`;
      if (classes.length === 0) return `<${tag}${attributes}>`;
      if (/ class="/.test(attributes)) {
        return `<${tag}${attributes.replace(/ class="([^"]*)"/, (_m, own: string) => ` class="${own} ${classes.join(' ')}"`)}>`;
      }
      return `<${tag} class="${classes.join(' ')}"${attributes}>`;
    },
  );
}

/** The declaration classes a fragment uses (none: it has no math drawn with KaTeX's HTML). */
export function mathClasses(html: string): string[] {
  const found = new Set<string>();
  // Most pages have no formula: a plain search is far cheaper than the pattern's look-behind at every character.
  if (!html.includes(' ks-') && !html.includes('"ks-')) return [];
  for (const m of html.matchAll(CLASS)) if (PROPERTIES.has(m[1]!)) found.add(m[0]);
  return [...found];
}

/**
 * The rules of some declaration classes. Each is `!important`, as the inline style it stands for would
 * outrank KaTeX's own rules (`.katex .vlist > span` sets a height of its own, for one).
 */
export function mathClassesCss(classes: Iterable<string>): string {
  const rules: string[] = [];
  for (const name of [...new Set(classes)].sort()) {
    const match = /^ks-([a-z-]+)_([A-Za-z0-9.%#-]+)$/.exec(name);
    if (!match || !PROPERTIES.has(match[1]!)) continue;
    rules.push(`.${name.replace(/[^A-Za-z0-9_-]/g, (c) => `\\${c}`)}{${match[1]}:${match[2]}!important}`);
  }
  return rules.join('\n');
}
