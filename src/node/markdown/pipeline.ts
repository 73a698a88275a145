import { Marked } from 'marked';
import { DEFAULT_EMBED_DOMAINS } from './embeds';
import { analyzeTokens, type PageAnalysis, type PageContext } from './analyze';
import { codeGroupExtension, constantExtension, containerExtension, tocExtension } from './extensions';
import { renderer } from './renderer';
import { sanitizeFragment } from './sanitize';

export interface RenderedPage {
  html: string;
  analysis: PageAnalysis;
}

/** One marked instance for the whole build: CommonMark + GFM with our extensions. */
const markdown = new Marked({
  gfm: true,
  renderer,
  extensions: [codeGroupExtension, containerExtension, tocExtension, constantExtension],
});

/** Markdown body → fragment HTML and page metadata, from a single lex. */
export function renderMarkdown(body: string, ctx: PageContext): RenderedPage {
  const source = body.replace(/\r\n?/g, '\n');
  const tokens = markdown.lexer(source);
  const analysis = analyzeTokens(tokens, source, ctx);
  let html = markdown.parser(tokens);
  // A wide table scrolls sideways inside its wrapper on a phone; a keyboard can only scroll a region it can
  // focus, and a focusable region needs a name.
  html = html
    .replace(/<table>/g, '<div class="table-wrap" role="region" aria-label="Table" tabindex="0"><table>')
    .replace(/<\/table>/g, '</table></div>');
  if (analysis.hasRawHtml) html = sanitizeFragment(html, ctx.embeds ?? DEFAULT_EMBED_DOMAINS);
  return { html, analysis };
}
