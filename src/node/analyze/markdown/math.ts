import katex from 'katex';
import type { Tokens, TokenizerAndRendererExtension } from 'marked';
import { markDrawn } from './drawn-markup';
import { escapeHtml } from './escape';
import { inlineStart, startInParagraph } from './extensions';
import { styleAsClasses } from './math-styles';

/** A formula as the page pass leaves it: its TeX, whether it is a display, and its markup once rendered. */
export interface MathToken extends Tokens.Generic {
  type: 'math';
  tex: string;
  display: boolean;
  /** Where the TeX starts in the token's raw text. */
  texAt: number;
  html?: string;
}

/**
 * `$…$` inline, as VitePress, Docusaurus and Fumadocs read it: the opening `$` is followed by a non-space,
 * the closing one follows a non-space and is not followed by a digit, and both are on one line. So
 * "$19 and $29" stays two prices, and `\$` (an escape marked reads first) a literal dollar.
 */
const INLINE = /^\$(?![\s$])((?:\\[\s\S]|[^\\$\n])*?[^\s\\])\$(?!\d)/;

export const inlineMathExtension: TokenizerAndRendererExtension = {
  name: 'math',
  level: 'inline',
  start(src) {
    return inlineStart(src, '$');
  },
  tokenizer(src) {
    const match = INLINE.exec(src);
    return match ? { type: 'math', raw: match[0], tex: match[1], display: false, texAt: 1 } : undefined;
  },
  renderer: (token) => (token as MathToken).html ?? escapeHtml(token.raw),
};

/** `$$` … `$$` from the start of a line, on one line or several: a formula of its own, centred. */
export const blockMathExtension: TokenizerAndRendererExtension = {
  name: 'mathBlock',
  level: 'block',
  start: (src) => startInParagraph(src, /^\$\$/m),
  tokenizer(src) {
    const match = /^\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/.exec(src);
    return match ? { type: 'math', raw: match[0], tex: match[1], display: true, texAt: 2 } : undefined;
  },
  renderer: (token) => (token as MathToken).html ?? escapeHtml(token.raw),
};

/**
 * Renders a formula with KaTeX at build time, as HTML and MathML, so no script reaches the reader: the
 * HTML is what a reader sees, laid out by KaTeX's stylesheet and fonts (self-hosted, and linked only by
 * pages with math: output/math-assets.ts), its inline styles made classes the site's stylesheet defines
 * (math-styles.ts), as the site's Content-Security-Policy forbids inline styles; the MathML is what
 * assistive technology reads, with the TeX as its annotation. The twin keeps the TeX as written. A
 * formula that does not parse is reported at its place in the TeX, with KaTeX's words; `report` takes an
 * offset into the token's raw text.
 */
export function renderMath(token: MathToken, report: (offsetInToken: number, message: string) => void): void {
  try {
    const html = katex.renderToString(token.tex, {
      displayMode: token.display,
      output: 'htmlAndMathml',
      throwOnError: true,
      strict: 'ignore',
      trust: false,
    });
    const drawn = markDrawn(styleAsClasses(html));
    token.html = token.display ? `<div class="math-display" tabindex="0">${drawn}</div>\n` : drawn;
  } catch (error) {
    if (!(error instanceof katex.ParseError)) throw error;
    const position = (error as { position?: number }).position ?? 0;
    const words = (error as { rawMessage?: string }).rawMessage ?? error.message;
    report(token.texAt + position, `TeX does not parse: ${words}`);
  }
}
