import type { RendererObject, Tokens } from 'marked';
import type { CodeAnnotation } from './code-fence';
import { escapeHtml } from './escape';

/** A code block's line numbers, one a line from `start`, hidden from assistive technology as from copying. */
function lineNumbersHtml(start: number, count: number): string {
  const numbers = Array.from({ length: count }, (_, i) => start + i).join('\n');
  return `<pre class="line-numbers" aria-hidden="true">${numbers}</pre>`;
}

type Annotated = {
  slug?: string;
  aliases?: string[];
  resolved?: string | null;
  external?: boolean;
  dimensions?: { width: number; height: number };
  eager?: boolean;
  zoom?: boolean;
};

/** Marked renderer overrides; every value they print was prepared by the analysis walk. */
export const renderer: RendererObject = {
  heading(token) {
    const { slug = '', aliases = [] } = token as Tokens.Heading & Annotated;
    const inner = this.parser.parseInline(token.tokens);
    const id = escapeHtml(slug);
    // The ids older sites gave this heading (see heading-aliases.ts), for links into the page from outside.
    const old = aliases.map((alias) => `<span id="${escapeHtml(alias)}" class="heading-alias"></span>`).join('');
    return `<h${token.depth} id="${id}" tabindex="-1">${old}${inner}<a class="header-anchor" href="#${id}" aria-label="Permalink to this section">#</a></h${token.depth}>\n`;
  },
  code(token) {
    const { html = escapeHtml(token.text), label = 'text', numbers, diagram } = token as Tokens.Code & CodeAnnotation;
    // A region a keyboard can scroll sideways, as a wide diagram does on a phone; the drawing names itself.
    if (diagram) return `<figure class="diagram" tabindex="0" role="group" aria-label="Diagram">${diagram}</figure>\n`;
    // The numbers are a column of their own beside the code, out of `<code>`: copying the code leaves them.
    const pre = `<pre class="shiki" tabindex="0"><code>${html}</code></pre>`;
    const body = numbers ? `<div class="code-body">${lineNumbersHtml(numbers.start, numbers.count)}${pre}</div>` : pre;
    return (
      `<div class="code-block"><div class="code-head"><span class="code-lang">${escapeHtml(label)}</span>` +
      `<button type="button" class="copy-code" aria-label="Copy code">Copy</button></div>${body}</div>\n`
    );
  },
  link(token) {
    const { resolved, external } = token as Tokens.Link & Annotated;
    const inner = this.parser.parseInline(token.tokens);
    if (resolved === null || resolved === undefined) return `<span class="broken-link">${inner}</span>`;
    const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
    const rel = external ? ' rel="noopener" class="external"' : '';
    return `<a href="${escapeHtml(resolved)}"${title}${rel}>${inner}</a>`;
  },
  // The width and height reserve the image's box before it loads, so nothing below it moves; only the
  // first image above the page's first section may be on the first screen and loads at once.
  image(token) {
    const { resolved, dimensions, eager, zoom } = token as Tokens.Image & Annotated;
    if (!resolved) return escapeHtml(token.text);
    const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
    const size = dimensions ? ` width="${dimensions.width}" height="${dimensions.height}"` : '';
    const loading = eager ? '' : ' loading="lazy"';
    const src = escapeHtml(resolved);
    const img = `<img src="${src}" alt="${escapeHtml(token.text)}"${title}${size} decoding="async"${loading}>`;
    // Without the app the link opens the file itself; the app shows it over the page (image-zoom.ts).
    const name = token.text.trim() ? '' : ' aria-label="Image at full size"';
    return zoom ? `<a class="zoom" href="${src}" data-zoom${name}>${img}</a>` : img;
  },
  html(token) {
    return token.text;
  },
  // A task list's box is read-only and has no label of its own; axe (rule "label") and screen readers
  // need a name, and the item's text follows it.
  checkbox({ checked }) {
    const name = checked ? 'Completed task' : 'Incomplete task';
    return `<input type="checkbox" class="task-checkbox" disabled aria-label="${name}"${checked ? ' checked' : ''}> `;
  },
};
