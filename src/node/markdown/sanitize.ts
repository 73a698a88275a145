import sanitizeHtml from 'sanitize-html';

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
  ],
  allowedAttributes: {
    '*': ['class', 'id', 'title', 'role', 'tabindex', 'lang', 'dir', 'aria-*', 'data-*'],
    a: ['href', 'rel', 'name', 'target'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    input: ['type', 'checked', 'disabled'],
    button: ['type'],
    details: ['open'],
    source: ['src', 'srcset', 'type', 'media'],
    video: ['src', 'controls', 'poster', 'width', 'height'],
    audio: ['src', 'controls'],
    td: ['align', 'colspan', 'rowspan'],
    th: ['align', 'colspan', 'rowspan', 'scope'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  // The void elements among the allowed tags: any other tag gets an end tag, and `</source>` is not HTML.
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'col', 'source', 'wbr'],
};

export function sanitizeFragment(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
