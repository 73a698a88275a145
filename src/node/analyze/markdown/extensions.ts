import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import type { PageHeader } from '../../../shared/types';
import { escapeHtml } from './escape';

export const CONTAINER_KINDS = ['tip', 'warning', 'danger', 'details'] as const;
export type ContainerKind = (typeof CONTAINER_KINDS)[number];

const DEFAULT_TITLES: Record<ContainerKind, string> = {
  tip: 'Tip',
  warning: 'Warning',
  danger: 'Danger',
  details: 'Details',
};

/**
 * Where a block of ours may start in `src`, for marked to end a paragraph before it: only within the
 * paragraph, up to its blank line, which ends it anyway. Searching the whole rest of the page, as marked
 * asks for each paragraph, made a page's reading grow with the square of its number of paragraphs.
 */
export function startInParagraph(src: string, pattern: RegExp): number | undefined {
  const blank = /\n[ \t]*\n/.exec(src);
  return (blank ? src.slice(0, blank.index + 1) : src).match(pattern)?.index;
}

/** `::: tip Optional title` … `:::` — body is markdown. */
export const containerExtension: TokenizerAndRendererExtension = {
  name: 'container',
  level: 'block',
  start: (src) => startInParagraph(src, /^:::/m),
  tokenizer(src) {
    const match = /^::: *(tip|warning|danger|details)(?:[ \t]+([^\n]*))?\n([\s\S]*?)(?:^|\n):::[ \t]*(?:\n+|$)/.exec(
      src,
    );
    if (!match) return undefined;
    const kind = match[1] as ContainerKind;
    const body = match[3] ?? '';
    return {
      type: 'container',
      raw: match[0],
      kind,
      title: match[2]?.trim() || DEFAULT_TITLES[kind],
      tokens: this.lexer.blockTokens(body, []),
    };
  },
  renderer(token) {
    const kind = token['kind'] as ContainerKind;
    const title = escapeHtml(String(token['title']));
    const body = this.parser.parse(token.tokens ?? []);
    if (kind === 'details') {
      return `<details class="container details"><summary>${title}</summary>${body}</details>\n`;
    }
    return `<div class="container ${kind}" role="note"><p class="container-title">${title}</p>${body}</div>\n`;
  },
};

/** A tab's label written after a code group's fence language: ```` ```js [Node.js] ````. */
const TAB_LABEL = /\[([^\]\n]*)\]/;

/**
 * `::: code-group` … `:::` around fenced code blocks: one tab per block, labelled by the `[Label]` after
 * the fence's language, or by the language. The analysis walk numbers the groups of a page (`index`) and
 * reports anything in the group that is not a code block.
 */
export const codeGroupExtension: TokenizerAndRendererExtension = {
  name: 'codeGroup',
  level: 'block',
  start: (src) => startInParagraph(src, /^::: *code-group/m),
  tokenizer(src) {
    const match = /^::: *code-group[ \t]*\n([\s\S]*?)(?:^|\n):::[ \t]*(?:\n+|$)/.exec(src);
    if (!match) return undefined;
    const tokens = this.lexer.blockTokens(match[1] ?? '', []);
    for (const token of tokens) {
      if (token.type !== 'code') continue;
      const code = token as Tokens.Code & { tab?: string };
      const lang = code.lang ?? '';
      const label = TAB_LABEL.exec(lang);
      code.lang = lang.replace(TAB_LABEL, '').trim();
      code.tab = label?.[1]?.trim() || /^[^\s{]*/.exec(code.lang)?.[0] || 'text';
    }
    return { type: 'codeGroup', raw: match[0], index: 0, tokens };
  },
  renderer(token) {
    const codes = (token.tokens ?? []).filter((t): t is Tokens.Code & { tab: string } => t.type === 'code');
    if (codes.length === 0) return '';
    const id = `code-group-${Number(token['index']) + 1}`;
    let tabs = '';
    let panels = '';
    codes.forEach((code, i) => {
      const tab = `${id}-tab-${i + 1}`;
      const panel = `${id}-panel-${i + 1}`;
      const first = i === 0;
      tabs +=
        `<button type="button" role="tab" id="${tab}" aria-controls="${panel}" aria-selected="${first}"` +
        ` tabindex="${first ? 0 : -1}">${escapeHtml(code.tab)}</button>`;
      panels +=
        `<div class="code-group-panel" role="tabpanel" id="${panel}" aria-labelledby="${tab}"${first ? '' : ' hidden'}>` +
        `${this.parser.parse([code])}</div>`;
    });
    // Prerendered with the first tab shown, so it reads without JavaScript; src/client/app/code-groups.ts
    // makes the tabs work and brings back the reader's choice.
    return (
      `<div class="code-group"><div class="code-group-tabs" role="tablist" aria-label="Code examples">${tabs}</div>` +
      `${panels}</div>\n`
    );
  },
};

/** `[[toc]]` on its own line; the analysis walk attaches the page's headers to the token. */
export const tocExtension: TokenizerAndRendererExtension = {
  name: 'toc',
  level: 'block',
  start: (src) => startInParagraph(src, /^\[\[toc\]\]/im),
  tokenizer(src) {
    const match = /^\[\[toc\]\][ \t]*(?:\n+|$)/i.exec(src);
    return match ? { type: 'toc', raw: match[0], headers: [] as PageHeader[] } : undefined;
  },
  renderer(token) {
    const headers = token['headers'] as PageHeader[];
    if (headers.length === 0) return '';
    // h3 entries nest inside the list item of the h2 before them, so lists only ever contain items.
    // A folded "On this page" block: the stylesheet shows it only where the side column is hidden.
    let html =
      '<details class="table-of-contents"><summary>On this page</summary>' + '<nav aria-label="Table of contents"><ul>';
    headers.forEach((h, i) => {
      const next = headers[i + 1];
      html += `<li><a href="#${escapeHtml(h.slug)}">${escapeHtml(h.title)}</a>`;
      if (h.level === 2 && next?.level === 3) html += '<ul>';
      else if (h.level === 3 && next?.level !== 3)
        html += i > 0 && headers.slice(0, i).some((p) => p.level === 2) ? '</li></ul></li>' : '</li>';
      else html += '</li>';
    });
    return `${html}</ul></nav></details>\n`;
  },
};

/**
 * Where a piece of inline text ends in marked's text rule whatever follows: before a character that may
 * start other markup, a hard line break, an e-mail address or a URL.
 */
const TEXT_STOP = /[\\<![`*~_@]| {2,}\n|https?|ftp:\/\/|www\./i;

/**
 * Where an inline extension's `marker` starts, searched only up to where marked's text rule stops by
 * itself: marked asks before every piece of text, and searching the whole rest of a paragraph each time
 * made a long one cost the square of its length.
 */
export function inlineStart(src: string, marker: string): number | undefined {
  const stop = TEXT_STOP.exec(src);
  const at = (stop ? src.slice(0, stop.index + 1) : src).indexOf(marker);
  return at >= 0 ? at : undefined;
}

/** `{{ NAME }}` in prose; the analysis walk resolves the value (or reports an unknown name). */
export const constantExtension: TokenizerAndRendererExtension = {
  name: 'constant',
  level: 'inline',
  start(src) {
    return inlineStart(src, '{{');
  },
  tokenizer(src) {
    const match = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/.exec(src);
    return match ? { type: 'constant', raw: match[0], name: match[1], value: undefined } : undefined;
  },
  renderer(token) {
    const value = token['value'] as string | undefined;
    return value === undefined ? escapeHtml(token.raw) : escapeHtml(value);
  },
};
