import { Marked } from 'marked';
import { DEFAULT_EMBED_DOMAINS } from '../../scan/embeds';
import { analyzeTokens, type PageAnalysis, type PageContext } from './analyze';
import { codeGroupExtension, constantExtension, containerExtension, tocExtension } from './extensions';
import { EmphasisMeter, EmphasisOverrun, pageShape, type BoundProblem } from './page-bounds';
import { blockMathExtension, inlineMathExtension } from './math';
import { renderer } from './renderer';
import { withoutDrawnMarks } from './drawn-markup';
import { markFirstScreen } from './first-screen';
import { sanitizeFragment } from './sanitize';
import { lineLocator } from '../../diagnostics';

export interface RenderedPage {
  html: string;
  analysis: PageAnalysis;
}

const emphasis = new EmphasisMeter();

/** One marked instance for the whole build: CommonMark + GFM with our extensions. */
const markdown = new Marked({
  gfm: true,
  renderer,
  extensions: [
    codeGroupExtension,
    containerExtension,
    tocExtension,
    blockMathExtension,
    constantExtension,
    inlineMathExtension,
  ],
  hooks: { emStrongMask: emphasis.hook },
});

/**
 * Markdown body → fragment HTML and page metadata, from a single lex. Undefined for a page past the
 * parser's limits (page-bounds.ts), with the error reported where it is.
 */
export function renderMarkdown(body: string, ctx: PageContext): RenderedPage | undefined {
  const source = body.replace(/\r\n?/g, '\n');
  const shape = pageShape(source);
  if (shape.problem) return refuse(shape.problem, source, ctx);
  emphasis.start();
  let tokens;
  try {
    tokens = markdown.lexer(source);
  } catch (error) {
    if (!(error instanceof EmphasisOverrun)) throw error;
    const message = `${error.message} (the costliest paragraph is here): put long runs of * _ ~ in code, or escape them (\\*)`;
    return refuse({ offset: shape.densestEmphasis, message }, source, ctx);
  } finally {
    emphasis.start(Infinity);
  }
  const analysis = analyzeTokens(tokens, source, ctx);
  let html = markdown.parser(tokens);
  // A wide table scrolls sideways inside its wrapper on a phone; a keyboard can only scroll a region it can
  // focus, and a focusable region needs a name.
  html = html
    .replace(/<table>/g, '<div class="table-wrap" role="region" aria-label="Table" tabindex="0"><table>')
    .replace(/<\/table>/g, '</table></div>');
  if (analysis.hasRawHtml) html = sanitizeFragment(html, ctx.embeds ?? DEFAULT_EMBED_DOMAINS);
  return { html: markFirstScreen(withoutDrawnMarks(html)), analysis };
}

function refuse(problem: BoundProblem, source: string, ctx: PageContext): undefined {
  const { line, column } = lineLocator(source)(problem.offset);
  ctx.diagnostics.error(ctx.file, line + ctx.lineOffset, column, problem.message);
  return undefined;
}
