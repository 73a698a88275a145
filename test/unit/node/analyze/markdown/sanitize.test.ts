import { describe, expect, it } from 'vitest';
import { droppedAttribute, droppedElement, sanitizeFragment } from '../../../../../src/node/analyze/markdown/sanitize';

/** The warnings must name exactly what the sanitizer removes, or writers are told about the wrong thing. */
describe('sanitizer warnings', () => {
  const tags = ['p', 'div', 'span', 'a', 'img', 'td', 'ol', 'details', 'video', 'source', 'input', 'svg'];
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

  it('keeps an iframe of an embed domain as a lazy responsive player and turns any other into a link', () => {
    const youtube =
      '<iframe width="560" height="315" src="https://www.youtube.com/embed/x" style="border:0" onload="f()" allowfullscreen></iframe>';
    expect(sanitizeFragment(youtube)).toBe(
      '<iframe src="https://www.youtube.com/embed/x" title="Embedded video" class="embed" loading="lazy" allowfullscreen allow="fullscreen; picture-in-picture; encrypted-media" referrerpolicy="strict-origin-when-cross-origin"></iframe>',
    );
    expect(sanitizeFragment('<iframe src="https://maps.example.com/m" title="Map"></iframe>')).toBe(
      '<a href="https://maps.example.com/m" class="embed-link" rel="noopener">Map</a>',
    );
    // Only https, and only the domains given: the site's own list replaces the default one.
    expect(sanitizeFragment('<iframe src="http://www.youtube.com/embed/x"></iframe>')).toBe(
      '<a href="http://www.youtube.com/embed/x" class="embed-link" rel="noopener">http://www.youtube.com/embed/x</a>',
    );
    expect(sanitizeFragment('<iframe src="https://player.vimeo.com/video/1"></iframe>', ['loom.com'])).toContain(
      '<a href="https://player.vimeo.com/video/1"',
    );
    expect(sanitizeFragment('<iframe src="javascript:alert(1)"></iframe>')).toBe(
      '<a class="embed-link" rel="noopener">javascript:alert(1)</a>',
    );
  });

  it('says why style and event handler attributes go', () => {
    expect(droppedAttribute('p', 'style')).toBe(
      `"style" attribute on <p> was removed: the site's Content-Security-Policy forbids inline styles`,
    );
    expect(droppedAttribute('div', 'onclick')).toBe(
      '"onclick" attribute on <div> was removed: pages cannot run scripts',
    );
    expect(droppedAttribute('p', 'align')).toBe('"align" attribute on <p> is not allowed in pages and was removed');
    expect(droppedElement('object')).toBe('<object> is not allowed in pages and was removed');
  });
});
