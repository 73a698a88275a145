/**
 * The MathML the sanitizer keeps: the presentation elements KaTeX writes for a formula (math.ts), which a
 * writer may also write in raw HTML, and the TeX annotation. Attribute names lower-cased, as the parser
 * reads them; none of them loads or runs anything.
 */
export const MATHML_TAGS = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mn',
  'mo',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'mstyle',
  'mpadded',
  'mphantom',
  'menclose',
];

const PRESENTATION = [
  'mathvariant',
  'displaystyle',
  'scriptlevel',
  'stretchy',
  'fence',
  'separator',
  'lspace',
  'rspace',
  'accent',
  'accentunder',
  'minsize',
  'maxsize',
  'movablelimits',
  'linethickness',
  'width',
  'height',
  'depth',
  'columnalign',
  'rowspacing',
  'columnspacing',
  'rowlines',
  'columnlines',
  'notation',
];

export const MATHML_ATTRIBUTES: Record<string, string[]> = {
  math: ['xmlns', 'display'],
  annotation: ['encoding'],
  ...Object.fromEntries(
    MATHML_TAGS.filter((tag) => tag !== 'math' && tag !== 'annotation').map((tag) => [tag, PRESENTATION]),
  ),
};
