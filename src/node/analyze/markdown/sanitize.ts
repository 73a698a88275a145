import sanitizeHtml from 'sanitize-html';
import { DEFAULT_EMBED_DOMAINS, isAllowedEmbed } from '../../scan/embeds';
import { FOREIGN_ROOTS, isUndrawnForeignRoot } from './drawn-markup';
import { HTML_PARSER_OPTIONS } from './html-tags';
import { MATHML_ATTRIBUTES, MATHML_TAGS } from './mathml-allowlist';
import { SVG_ATTRIBUTES, SVG_TAGS } from './svg-allowlist';

/**
 * Run only on pages with raw HTML: keeps the markup writers may use and what the renderer emits, and
 * drops scripts, event handlers and unsafe URLs. Also rebalances unclosed tags.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'details',
    'summary',
    'nav',
    'button',
    'input',
    'kbd',
    'del',
    's',
    'ins',
    'mark',
    'picture',
    'source',
    'video',
    'audio',
    'figure',
    'figcaption',
    'dl',
    'dt',
    'dd',
    'sub',
    'sup',
    'iframe',
    ...SVG_TAGS,
    ...MATHML_TAGS,
  ],
  allowedAttributes: {
    '*': ['class', 'id', 'title', 'role', 'tabindex', 'lang', 'dir', 'aria-*', 'data-*'],
    a: ['href', 'rel', 'name', 'target'],
    img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
    input: ['type', 'checked', 'disabled'],
    button: ['type'],
    // A code group's hidden tab panels (extensions.ts).
    div: ['hidden'],
    details: ['open'],
    source: ['src', 'srcset', 'type', 'media'],
    video: ['src', 'controls', 'poster', 'width', 'height'],
    audio: ['src', 'controls'],
    td: ['align', 'colspan', 'rowspan'],
    th: ['align', 'colspan', 'rowspan', 'scope'],
    ol: ['start'],
    iframe: ['src', 'title', 'loading', 'allowfullscreen', 'allow', 'referrerpolicy'],
    ...SVG_ATTRIBUTES,
    ...MATHML_ATTRIBUTES,
  },
  // The schemes links may use (links.ts): a markdown ftp: link on a page with raw HTML must survive too.
  allowedSchemes: ['http', 'https', 'mailto', 'tel', 'ftp'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  // SVG and MathML only as the build drew them (drawn-markup.ts): a writer's own go, with what they hold.
  exclusiveFilter: (frame) => isUndrawnForeignRoot(frame.tag, frame.attribs),
  // The parser the raw HTML check reads each snippet with (raw-html.ts), so that both read the same tags.
  parser: { ...HTML_PARSER_OPTIONS },
  // The void elements among the allowed tags: any other tag gets an end tag, and `</source>` is not HTML.
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'col', 'source', 'wbr'],
};

/** What an iframe becomes: a lazy, responsive player from an embed domain, else a link to its URL. */
function embedTransform(embeds: readonly string[]): sanitizeHtml.Transformer {
  return (_tagName, attribs): sanitizeHtml.Tag => {
    const src = attribs['src'] ?? '';
    const title = attribs['title']?.trim() ?? '';
    if (isAllowedEmbed(src, embeds)) {
      return {
        tagName: 'iframe',
        attribs: {
          src,
          title: title || 'Embedded video',
          class: 'embed',
          loading: 'lazy',
          allowfullscreen: '',
          allow: 'fullscreen; picture-in-picture; encrypted-media',
          referrerpolicy: 'strict-origin-when-cross-origin',
        },
      };
    }
    return { tagName: 'a', attribs: { href: src, class: 'embed-link', rel: 'noopener' }, text: title || src };
  };
}

const optionsByEmbeds = new Map<string, sanitizeHtml.IOptions>();

export function sanitizeFragment(html: string, embeds: readonly string[] = DEFAULT_EMBED_DOMAINS): string {
  const key = embeds.join(' ');
  let options = optionsByEmbeds.get(key);
  if (!options) {
    options = {
      ...OPTIONS,
      transformTags: { iframe: embedTransform(embeds) },
      allowedIframeDomains: [...embeds],
      allowIframeRelativeUrls: false,
    };
    optionsByEmbeds.set(key, options);
  }
  return sanitizeHtml(html, options);
}

const ALLOWED_TAGS = new Set(OPTIONS.allowedTags || []);
const ALLOWED_ATTRIBUTES = new Map(
  Object.entries(OPTIONS.allowedAttributes || {}).map(([tag, names]) => [
    tag,
    names.map((name) => (typeof name === 'string' ? name : name.name)),
  ]),
);

/**
 * What the sanitizer drops of a raw HTML element, as a warning for the writer, read from the same allowlist:
 * undefined when the element is kept. The analysis walk reports it where the element was written.
 */
export function droppedElement(tag: string): string | undefined {
  return ALLOWED_TAGS.has(tag) && !FOREIGN_ROOTS.has(tag)
    ? undefined
    : `<${tag}> is not allowed in pages and was removed`;
}

/** The same for one attribute of an element the sanitizer keeps. */
export function droppedAttribute(tag: string, attribute: string): string | undefined {
  const allowed = [...(ALLOWED_ATTRIBUTES.get('*') ?? []), ...(ALLOWED_ATTRIBUTES.get(tag) ?? [])];
  if (allowed.some((name) => name === attribute || (name.endsWith('*') && attribute.startsWith(name.slice(0, -1))))) {
    return undefined;
  }
  const what = `"${attribute}" attribute on <${tag}>`;
  // The site's Content-Security-Policy (src/node/output/headers.ts) has no 'unsafe-inline' for styles or scripts.
  if (attribute === 'style') return `${what} was removed: the site's Content-Security-Policy forbids inline styles`;
  if (attribute.startsWith('on')) return `${what} was removed: pages cannot run scripts`;
  return `${what} is not allowed in pages and was removed`;
}
