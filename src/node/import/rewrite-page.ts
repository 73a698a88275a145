import { routeFromRelativePath } from '../../shared/paths';
import { clientRedirect } from '../analyze/client-redirect';
import { frontmatterBlock } from '../analyze/frontmatter';
import { lineLocator } from '../diagnostics';
import { isAllowedEmbed } from '../scan/embeds';
import { LegacySlugger } from '../analyze/markdown/heading-aliases';
import { componentKey, type ComponentFile } from './components';
import type { ImportReport } from './report';
import { FENCE, rewriteFrontmatter } from './rewrite-frontmatter';

/**
 * One page of the old site, rewritten for this one. Fenced code is left as written (Vue never evaluated
 * it); in the rest:
 * - template text (`{{ $site.themeConfig.X }}`, `{{ $themeConfig.X }}`, `{{ $site.title }}`) becomes the
 *   site's constant (`{{ X }}`), and inside inline code, where VuePress evaluated it too but this site
 *   leaves code as written, its value;
 * - other template text is escaped so it shows as written, and reported;
 * - `<script>` and `<style>` blocks are removed and reported;
 * - an image or link bound to `$withBase('/x.png')` gets `/x.png` as its own `src` or `href`;
 * - Vue components: a static one of `.vuepress/components/` becomes its HTML, `<ClientOnly>` its content,
 *   `<Badge>` and `<RouterLink>` their HTML equivalents; any other is removed and reported;
 * - a page with no title gets one from its file name.
 * A page whose whole body is a client-side redirect is no page: its target is returned instead.
 */

export interface PageRewriteContext {
  /** Option path under themeConfig → constant name, for template text. */
  themeOptions: ReadonlyMap<string, string>;
  /** The site's constants by name (`SITE_TITLE`, the theme's), with their values. */
  constants: ReadonlyMap<string, string>;
  components: ReadonlyMap<string, ComponentFile>;
  report: ImportReport;
  /** The embed domains of the new `_site.yaml`. */
  embeds: readonly string[];
  /** Name of the source folder, for the home page's fallback title. */
  sourceName: string;
}

export type RewrittenPage = { kind: 'page'; text: string } | { kind: 'redirect'; target: string };

const NAME = String.raw`[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]*(?:-[a-z0-9]+)+`;
const PROSE = new RegExp(
  [
    String.raw`(\`+)([^\`][\s\S]*?)\1(?!\`)`, // 1, 2: inline code
    String.raw`<(script|style)\b[\s\S]*?<\/\3\s*>`, // 3: a script or style block
    String.raw`<(${NAME})((?:\s[^<>]*?)?)\/>`, // 4, 5: a self-closing component
    String.raw`<(${NAME})((?:\s[^<>]*?)?)>([\s\S]*?)<\/\6\s*>`, // 6, 7, 8: a component with content
    String.raw`\{\{([\s\S]*?)\}\}`, // 9: template text
    String.raw`(\]\(\s*<?|\shref\s*=\s*["']|^ {0,3}\[[^\]\n]+\]:[ \t]*<?)([^\s"'<>()]+)`, // 10, 11: a link's target
    String.raw`\s(?:v-bind)?:(src|href)\s*=\s*(?:"\$withBase\(\s*'([^'"]*)'\s*\)"|'\$withBase\(\s*"([^'"]*)"\s*\)')`, // 12, 13, 14: $withBase
  ].join('|'),
  'gm',
);

export function rewritePage(text: string, file: string, ctx: PageRewriteContext): RewrittenPage {
  const front = frontmatterBlock(text);
  const head = front?.block ?? '';
  const body = text.slice(head.length);
  const redirect = clientRedirect(body);
  if (redirect) return { kind: 'redirect', target: redirect.target };

  const lineAt = lineLocator(text);
  const where = (offset: number) => lineAt(head.length + offset).line;
  let out = '';
  let fence: string | undefined;
  let prose = '';
  let proseStart = 0;
  let offset = 0;
  const flush = () => {
    out += rewriteProse(prose, proseStart, file, ctx, where);
    prose = '';
  };
  for (const line of body.split(/(?<=\n)/)) {
    const opener = FENCE.exec(line)?.[1];
    if (fence === undefined && opener) {
      flush();
      fence = opener;
      out += line;
    } else if (fence !== undefined) {
      out += line;
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener)
        fence = undefined;
    } else {
      if (prose === '') proseStart = offset;
      prose += line;
    }
    offset += line.length;
  }
  flush();
  return { kind: 'page', text: rewriteFrontmatter(front, out, file, ctx) };
}

function rewriteProse(
  text: string,
  start: number,
  file: string,
  ctx: PageRewriteContext,
  where: (offset: number) => number,
): string {
  for (const iframe of text.matchAll(/<iframe\b[^>]*?\ssrc\s*=\s*["']([^"']*)["']/gi)) {
    const src = iframe[1] ?? '';
    if (isAllowedEmbed(src, ctx.embeds)) continue;
    ctx.report.changed(
      file,
      where(start + iframe.index),
      `the \`<iframe>\` of ${src} is not from an embed domain: pages show a link to it`,
    );
  }
  const links: number[] = [];
  const rewritten = text.replace(PROSE, (...match: unknown[]) => {
    const [whole, ticks, code, block, selfName, selfAttrs, name, attrs, inner, template, before, target] = match as (
      string | undefined
    )[];
    const bound = match[12] as string | undefined;
    const basePath = (match[13] ?? match[14]) as string | undefined;
    const at = start + (match[15] as number);
    const line = where(at);
    if (bound !== undefined && basePath !== undefined) {
      // The site's base comes first in every link and image of this site, as `$withBase` put it there.
      ctx.report.changed(file, line, `\`:${bound}="$withBase('${basePath}')"\` became \`${bound}="${basePath}"\``);
      return ` ${bound}="${basePath}"`;
    }
    if (target !== undefined) {
      const moved = movedLink(target, file);
      if (moved !== target) links.push(line);
      return (before ?? '') + moved;
    }
    if (ticks !== undefined && code !== undefined) {
      const evaluated = code.replace(/\{\{([\s\S]*?)\}\}/g, (written, expr: string) => {
        const value = ctx.constants.get(templateConstant(expr, ctx) ?? '');
        if (value === undefined) return written;
        ctx.report.changed(file, line, `\`{{${expr}}}\` in inline code became its value, ${value}`);
        return value;
      });
      return ticks + evaluated + ticks;
    }
    if (block !== undefined) {
      ctx.report.lost(file, line, `a \`<${block}>\` block cannot run on this site and was removed`);
      return '';
    }
    const componentName = selfName ?? name;
    if (componentName !== undefined) {
      const html = component(componentName, selfAttrs ?? attrs ?? '', inner ?? '', file, line, at, ctx, where);
      const heading = componentKey(componentName) === 'badge' ? oldHeadingId(text, match[15] as number) : undefined;
      // The old site's id of a heading left the badge out; its text is in the heading here, so the mark
      // carries the old id, for links written for the old site.
      return heading ? html.replace(/^<mark>/, `<mark id="${heading}">`) : html;
    }
    if (template !== undefined) {
      const constant = templateConstant(template, ctx);
      if (constant !== undefined) {
        ctx.report.changed(file, line, `\`{{${template}}}\` became the constant \`{{ ${constant} }}\``);
        return `{{ ${constant} }}`;
      }
      ctx.report.lost(file, line, `template text \`{{${template}}}\` cannot be evaluated here and is shown as written`);
      return `\\{{${template}}}`;
    }
    return whole ?? '';
  });
  if (links.length > 0) {
    const route = routeFromRelativePath(file);
    ctx.report.changed(
      file,
      links[0] ?? 0,
      `${links.length} relative ${links.length === 1 ? 'link was' : 'links were'} written for the page's old address, ` +
        `${route.replace(/\/$/, '.html')}: ${links.length === 1 ? 'it now starts' : 'they now start'} from ${route}`,
    );
  }
  return rewritten;
}

/**
 * A relative link as it must be written at the page's new address. The old tools served `guide/setup.md` at
 * `/guide/setup.html`, where `install.html` and `../api/` start from `/guide/`; here the page is the folder
 * `/guide/setup/`, one level deeper. A link to a `.md` file is read from the file, as before, and a README's
 * or index's address is its folder in both; so is a file (an image, a PDF), which the build finds beside the
 * page.
 */
function movedLink(target: string, file: string): string {
  if (/(^|\/)(readme|index)\.md$/i.test(file)) return target;
  if (/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(target)) return target;
  const pathPart = target.split(/[?#]/)[0] ?? '';
  const lastName = pathPart.split('/').pop() ?? '';
  if (/\.md$/i.test(pathPart) || (/\.[a-z0-9]+$/i.test(lastName) && !/\.html?$/i.test(lastName))) return target;
  return `../${target.replace(/^\.\//, '')}`;
}

/**
 * The id VuePress and VitePress gave the heading a badge at `offset` is in (they read a heading's text
 * without its components), or undefined when the badge is in no heading.
 */
function oldHeadingId(text: string, offset: number): string | undefined {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const heading = /^ {0,3}#{1,6}\s+(.*)$/.exec(text.slice(start, end < 0 ? text.length : end))?.[1];
  if (heading === undefined) return undefined;
  const words = heading
    .replace(new RegExp(String.raw`<(${NAME})\b[^>]*?(?:\/>|>[\s\S]*?<\/\1\s*>)`, 'g'), '')
    .replace(/<[^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '');
  return new LegacySlugger().slugs(words)[0];
}

/** The constant a template expression names, or undefined when it is anything else. */
function templateConstant(expression: string, ctx: PageRewriteContext): string | undefined {
  const expr = expression.trim();
  const site = /^\$site\.(title|description)$/.exec(expr);
  if (site) {
    const name = `SITE_${site[1]?.toUpperCase()}`;
    return ctx.constants.has(name) ? name : undefined;
  }
  const theme = /^\$(?:(?:site\.)?themeConfig|theme)((?:\.[A-Za-z_$][\w$-]*|\[['"][^'"]+['"]\])+)$/.exec(expr);
  if (!theme) return undefined;
  const option = (theme[1] ?? '').replace(/\[['"]([^'"]+)['"]\]/g, '.$1').slice(1);
  const name = ctx.themeOptions.get(option);
  return name !== undefined && ctx.constants.has(name) ? name : undefined;
}

/** What a Vue component used in a page becomes. */
function component(
  name: string,
  attrs: string,
  inner: string,
  file: string,
  line: number,
  at: number,
  ctx: PageRewriteContext,
  where: (offset: number) => number,
): string {
  const key = componentKey(name);
  const attr = (wanted: string) => new RegExp(String.raw`(?:^|\s)${wanted}\s*=\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  const value = (wanted: string) => {
    const m = attr(wanted);
    return m ? (m[1] ?? m[2] ?? '') : undefined;
  };
  const innerStart = at + `<${name}${attrs}>`.length;
  if (key === 'clientonly') return rewriteProse(inner, innerStart, file, ctx, where);
  if (key === 'badge') {
    const text = value('text') ?? inner.trim();
    ctx.report.changed(file, line, `\`<${name}>\` became \`<mark>${text}</mark>\``);
    return `<mark>${text}</mark>`;
  }
  if (key === 'routerlink' && value('to') !== undefined) {
    ctx.report.changed(file, line, `\`<${name}>\` became a markdown link`);
    return `[${rewriteProse(inner, innerStart, file, ctx, where).trim()}](${value('to')})`;
  }
  const found = ctx.components.get(key);
  if (found?.staticHtml !== undefined) {
    ctx.report.changed(file, line, `\`<${name}>\` became the HTML of its template (${found.file})`);
    // On a line of its own the HTML stays a block of its own.
    return `\n\n${found.staticHtml}\n\n`;
  }
  const from = found ? `its template in ${found.file} has bindings` : 'it is not in .vuepress/components/';
  ctx.report.lost(file, line, `component \`<${name}>\` cannot run on this site and was removed (${from})`);
  return '';
}
