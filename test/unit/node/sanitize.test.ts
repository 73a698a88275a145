import { describe, expect, it } from 'vitest';
import { droppedAttribute, droppedElement, sanitizeFragment } from '../../../src/node/markdown/sanitize';

/** The warnings must name exactly what the sanitizer removes, or writers are told about the wrong thing. */
describe('sanitizer warnings', () => {
  const tags = ['p', 'div', 'span', 'a', 'img', 'td', 'ol', 'details', 'video', 'source', 'input', 'iframe', 'svg'];
  const attributes = ['style', 'align', 'class', 'id', 'onclick', 'data-x', 'aria-label', 'width', 'href', 'target'];

  for (const tag of tags) {
    it(`<${tag}>`, () => {
      const html = sanitizeFragment(`<${tag} ${attributes.map((a) => `${a}="v"`).join(' ')}>x</${tag}>`);
      const kept = new RegExp(`<${tag}\\b`).test(html);
      expect(droppedElement(tag) === undefined, html).toBe(kept);
      if (!kept) return;
      for (const attribute of attributes) {
        expect(droppedAttribute(tag, attribute) === undefined, `${attribute} in ${html}`).toBe(
          new RegExp(`\\s${attribute}="`).test(html),
        );
      }
    });
  }

  it('keeps every scheme a markdown link may use, so no link loses its href without a warning', () => {
    for (const href of ['https://x.y/', 'http://x.y/', 'mailto:a@b.c', 'tel:+1', 'ftp://x.y/f']) {
      expect(sanitizeFragment(`<p><a href="${href}">x</a></p>`)).toBe(`<p><a href="${href}">x</a></p>`);
    }
  });

  it('says why style and event handler attributes go', () => {
    expect(droppedAttribute('p', 'style')).toBe(
      `"style" attribute on <p> was removed: the site's Content-Security-Policy forbids inline styles`,
    );
    expect(droppedAttribute('div', 'onclick')).toBe(
      '"onclick" attribute on <div> was removed: pages cannot run scripts',
    );
    expect(droppedAttribute('p', 'align')).toBe('"align" attribute on <p> is not allowed in pages and was removed');
    expect(droppedElement('iframe')).toBe('<iframe> is not allowed in pages and was removed');
  });
});
