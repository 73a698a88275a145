import { randomBytes } from 'node:crypto';

/**
 * SVG and MathML that the build draws itself (a mermaid block's diagram, a formula), told apart from SVG
 * and MathML a writer typed as raw HTML. The sanitizer keeps only the drawn ones: it does not read foreign
 * content the way a browser does (`<svg>` and `<math>` change how a browser parses what they hold, the
 * root of mutation XSS), so writers' raw `<svg>` and `<math>` are dropped with a warning, as they always
 * were. The mark is a value no page can know, made afresh in each process and taken out of the page's HTML
 * before it goes anywhere, so the output stays the same from one build to the next.
 */
const MARK_VALUE = randomBytes(12).toString('hex');
const MARK = ` data-drawn="${MARK_VALUE}"`;

/** The root elements whose content a browser parses as foreign: kept only when the build drew them. */
export const FOREIGN_ROOTS = new Set(['svg', 'math']);

/**
 * Marks the roots of markup the build drew: each `<svg …>` and `<math …>` in it (a formula's HTML holds an
 * SVG for each stretchy arrow, brace or root sign beside its MathML).
 */
export function markDrawn(html: string): string {
  return html.replace(/<(svg|math)\b/g, `<$1${MARK}`);
}

/** Whether the sanitizer should drop this element: a foreign root the build did not draw. */
export function isUndrawnForeignRoot(tag: string, attribs: Readonly<Record<string, string>>): boolean {
  return FOREIGN_ROOTS.has(tag) && attribs['data-drawn'] !== MARK_VALUE;
}

/** The page's HTML without the marks, once the sanitizer (if the page needed it) has read them. */
export function withoutDrawnMarks(html: string): string {
  return html.includes(MARK) ? html.split(MARK).join('') : html;
}
