import GithubSlugger from 'github-slugger';
import type { Token, Tokens } from 'marked';
import type { PageHeader } from '../../../shared/types';
import { lineLocator, type DiagnosticList } from '../../diagnostics';
import type { ImageDimensions, PageAsset } from './assets';
import type { BlockHighlighter } from './code-blocks';
import { annotateCode } from './code-fence';
import { DEFAULT_EMBED_DOMAINS, isAllowedEmbed } from '../../scan/embeds';
import { LegacySlugger } from './heading-aliases';
import { linkTargets, type LinkReference } from './link-targets';
import { ARTICLE_WIDTH, unsizedRemoteImage } from './image-box';
import { renderMath, type MathToken } from './math';
import { checkRawHtml, type RawHtmlHooks } from './raw-html';
import { collectSection, type SearchSection } from './sections';
import { closest } from './suggest';
import { childTokens, plainText } from './tokens';
import { explicitId, locate } from './token-source';

export type { PageAsset } from './assets';
export type { LinkReference } from './link-targets';

/** What the walk needs to know about the page and the site. */
export interface PageContext {
  /** Source path relative to the content folder. */
  file: string;
  /** Absolute folder of the source file, to find relative images. */
  absoluteDir: string;
  /** The content folder, which no image or file may come from outside of; the page's folder when not given. */
  contentDir?: string;
  route: string;
  base: string;
  /** Lines before the markdown body (frontmatter), added to every reported line. */
  lineOffset: number;
  constants: Readonly<Record<string, string>>;
  highlighter: BlockHighlighter;
  strict: boolean;
  diagnostics: DiagnosticList;
  /** Domains whose iframes the page keeps; the default list when not given. */
  embeds?: readonly string[];
  /** Whether code blocks number their lines unless their fence says otherwise (`lineNumbers` of `_site.yaml`). */
  lineNumbers?: boolean;
}

export interface PageAnalysis {
  h1?: string;
  headers: PageHeader[];
  /** Every heading id of the page and every id of its raw HTML, for anchor checks. */
  anchors: string[];
  /**
   * The ids VuePress and VitePress gave the page's headings where they differ from ours, each to our id:
   * links written for them resolve, and the heading carries the old id as a second anchor.
   */
  aliases: Record<string, string>;
  firstParagraph: string;
  links: LinkReference[];
  assets: PageAsset[];
  /**
   * The local images and files the page names that were not copied (missing, or a link out of the content
   * folder): the page may change once one of them is a file.
   */
  uncopied: string[];
  sections: SearchSection[];
  hasRawHtml: boolean;
  /**
   * Where the `.md` twin differs from the body, by offset: a constant (`{{ NAME }}`, outside code) is its
   * value, and a link or image to this site its URL with the base, so that it leads where the twin is served.
   */
  twinEdits: { offset: number; length: number; value: string }[];
}

/** The analysis of a page with nothing in it: what a file that only redirects has. */
export function emptyAnalysis(): PageAnalysis {
  return {
    headers: [],
    anchors: [],
    aliases: {},
    firstParagraph: '',
    links: [],
    assets: [],
    uncopied: [],
    sections: [],
    hasRawHtml: false,
    twinEdits: [],
  };
}

/**
 * The one walk over a page's tokens: gives every token its position, annotates the tokens the renderer
 * needs (slugs, resolved links, highlighted code, constant values) and collects the page's metadata and
 * search sections. Rendering afterwards reads only the annotations.
 */
export function analyzeTokens(tokens: Token[], body: string, ctx: PageContext): PageAnalysis {
  const slugger = new GithubSlugger();
  const legacy = new LegacySlugger();
  // Text before the first heading belongs to the page's intro section.
  const result: PageAnalysis = { ...emptyAnalysis(), sections: [{ level: 1, heading: '', slug: '', text: '' }] };
  const tocTokens: Tokens.Generic[] = [];
  /** Code groups so far, numbering each group's tab ids within the page. */
  let codeGroups = 0;
  let insideLink = false;
  /** Images so far: only the first, and only above the page's first section, may be on the first screen. */
  let images = 0;
  /** Raw HTML warnings already given in the current top-level block. */
  const rawWarnings = new Set<string>();

  const lines = lineLocator(body);
  const at = (offset: number) => {
    const { line, column } = lines(offset);
    return { line: line + ctx.lineOffset, column };
  };
  const lineNumbers = ctx.lineNumbers ?? false;
  const report = (offset: number, message: string, severity: 'error' | 'warning' | 'problem') => {
    const { line, column } = at(offset);
    if (severity === 'warning') ctx.diagnostics.warn(ctx.file, line, column, message);
    else if (severity === 'error') ctx.diagnostics.error(ctx.file, line, column, message);
    else ctx.diagnostics.problem(ctx.strict, ctx.file, line, column, message);
  };

  function visit(token: Token, offset: number): void {
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading & { slug?: string; aliases?: string[] };
        // Children first: a constant in a heading gives its id and title its value, not its name.
        visitChildren(token, offset);
        const explicit = explicitId(heading);
        const title = plainText(heading.tokens);
        heading.slug = explicit ? slugger.slug(explicit, true) : slugger.slug(title || 'section');
        result.anchors.push(heading.slug);
        heading.aliases = legacy.slugs(title).filter((old) => old !== heading.slug && !(old in result.aliases));
        for (const old of heading.aliases) result.aliases[old] = heading.slug;
        if (heading.depth === 1 && result.h1 === undefined) result.h1 = title;
        if (heading.depth === 2 || heading.depth === 3) {
          result.headers.push({ level: heading.depth, title, slug: heading.slug });
        }
        return;
      }
      case 'code':
        annotateCode(token as Tokens.Code, offset, { highlighter: ctx.highlighter, lineNumbers, report });
        return;
      case 'link':
        // An autolink in a link's text (`[see <https://x.y>](/a/)`) would print <a> in <a>, which HTML
        // cannot nest (browsers split it); it stays as its text.
        if (insideLink) {
          (token as { type: string }).type = 'text';
          break;
        }
        annotateLink(token as Tokens.Link & Annotated, offset);
        insideLink = true;
        visitChildren(token, offset);
        insideLink = false;
        return;
      case 'image':
        annotateLink(token as Tokens.Image & Annotated, offset);
        break;
      case 'html': {
        result.hasRawHtml = true;
        const html = token as Tokens.HTML;
        const written = html.text;
        html.text = checkRawHtml(written, offset, rawHtmlHooks);
        const at = token.raw.indexOf(written);
        if (html.text !== written && at >= 0) {
          result.twinEdits.push({ offset: offset + at, length: written.length, value: html.text });
        }
        return;
      }
      case 'constant': {
        const constant = token as Tokens.Generic;
        const name = String(constant['name']);
        const value = ctx.constants[name];
        if (value === undefined) {
          const known = Object.keys(ctx.constants).sort();
          report(offset, `unknown constant "${name}"${closest(name, known)}`, 'error');
        }
        constant['value'] = value;
        if (value !== undefined) result.twinEdits.push({ offset, length: token.raw.length, value });
        return;
      }
      case 'toc':
        tocTokens.push(token as Tokens.Generic);
        return;
      case 'math':
        renderMath(token as MathToken, (at, message) => report(offset + at, message, 'error'));
        return;
      case 'codeGroup': {
        const group = token as Tokens.Generic;
        group['index'] = codeGroups++;
        const blocks = (group.tokens ?? []).filter((t) => t.type !== 'space');
        if (blocks.length === 0) report(offset, 'code-group has no code blocks', 'error');
        else if (blocks.some((t) => t.type !== 'code')) {
          report(offset, 'code-group holds only fenced code blocks: move other text out of the group', 'error');
        }
        break;
      }
    }
    visitChildren(token, offset);
  }

  function visitChildren(token: Token, offset: number): void {
    let cursor = offset;
    for (const child of childTokens(token)) {
      const found = locate(body, child.raw, cursor, offset + token.raw.length);
      visit(child, found);
      if (found > cursor) cursor = found;
    }
  }

  type Annotated = {
    resolved?: string | null;
    external?: boolean;
    dimensions?: ImageDimensions;
    eager?: boolean;
    zoom?: boolean;
  };

  function annotateLink(link: (Tokens.Link | Tokens.Image) & Annotated, offset: number): void {
    if (link.type === 'image') {
      const assetsBefore = result.assets.length;
      link.resolved = embedTarget(link.href, 'image', offset);
      const unsized =
        link.resolved === null ? undefined : unsizedRemoteImage(link.resolved, undefined, undefined, true);
      if (unsized) report(offset, unsized, 'warning');
      if (result.assets.length > assetsBefore) link.dimensions = result.assets.at(-1)?.dimensions;
      link.eager = images++ === 0 && result.headers.length === 0;
      // A link of its own inside a link's text would nest <a> in <a>.
      link.zoom = !insideLink && (link.dimensions?.width ?? 0) > ARTICLE_WIDTH;
    } else {
      const target = linkTarget(link.href, offset);
      link.resolved = target.href;
      link.external = target.external;
    }
    if (link.resolved?.startsWith('/')) twinLink(link, link.resolved, offset);
  }

  /**
   * The twin's link to this site: the destination after the label (`[text](url "title")`, `[text][ref]`)
   * becomes `(url-with-base "title")`. A label the token does not give back as written is left alone.
   */
  function twinLink(link: Tokens.Link | Tokens.Image, href: string, offset: number): void {
    const labelEnd = (link.type === 'image' ? 2 : 1) + link.text.length;
    if (!link.raw.startsWith(link.type === 'image' ? '![' : '[') || link.raw[labelEnd] !== ']') return;
    const title = link.title ? ` "${link.title.replace(/["\\]/g, '\\$&')}"` : '';
    const destination = `(${href.replace(/[()\s]/g, encodeURIComponent)}${title})`;
    result.twinEdits.push({
      offset: offset + labelEnd + 1,
      length: link.raw.length - labelEnd - 1,
      value: destination,
    });
  }

  const { linkTarget, embedTarget } = linkTargets(ctx, report, at, result);

  const rawHtmlHooks: RawHtmlHooks = {
    warn(offset, message) {
      // Once per block: a paragraph's inline tags are tokens each.
      if (rawWarnings.has(message)) return;
      rawWarnings.add(message);
      report(offset, message, 'warning');
    },
    embed: (src) => isAllowedEmbed(src, ctx.embeds ?? DEFAULT_EMBED_DOMAINS),
    url: (kind, written, offset) =>
      kind === 'link' ? linkTarget(written, offset, true).href : embedTarget(written, kind, offset, true),
    anchor: (id) => result.anchors.push(id),
    image: (href) => {
      const url = href.split('#')[0];
      const dimensions = result.assets.find((asset) => asset.url === url)?.dimensions;
      const eager = images++ === 0 && result.headers.length === 0;
      return dimensions ? { dimensions, eager } : { eager };
    },
  };

  let cursor = 0;
  for (const token of tokens) {
    rawWarnings.clear();
    const offset = locate(body, token.raw, cursor, body.length);
    visit(token, offset);
    if (offset >= cursor) cursor = offset + token.raw.length;
    collectSection(token, result);
  }
  for (const toc of tocTokens) toc['headers'] = result.headers;
  result.sections = result.sections.filter((s, i) => i > 0 || s.text !== '');
  return result;
}
