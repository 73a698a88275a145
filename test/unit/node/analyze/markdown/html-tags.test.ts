import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { HTML_PARSER_OPTIONS, openingTags } from '../../../../../src/node/analyze/markdown/html-tags';

/**
 * The raw HTML check reads tags with openingTags() and the sanitizer with sanitize-html: they must read
 * the same tags with the same attributes, or a writer is warned about markup the reader never gets.
 */
const SNIPPETS = [
  `<a title="1 > 0" data-note=it's href="../other/">other</a>`,
  '<a href=/x?a=b&amp;c=d>x</a>',
  '<!-- <a href="/hidden/"> --><b class=x>b</b>',
  '<!--><a href="/y/" onclick="go()">y</a>-->',
  '<IMG SRC="./diagram.png" ONERROR="x()" Alt=Diagram>',
  '<img src="./a.png" src="./b.png" alt="">',
  '<script>if (a < b) document.write("<img src=x>")</script foo><i>after</i>',
  '<textarea><a href="/in-text/"></textarea><xmp><b></xmp><style>p { color: red }</style>',
  '<scr<script>ipt>alert(1)</script>',
  '<svg viewBox="0 0 1 1"><circle r="1"/><title><b>t</b></title></svg>',
  '<p>one<p>two<div>three</div><li>four',
  '<a href="&#x6A;avascript:alert(1)" title="&lt;&quot;&eacute;">e</a>',
  '<a href = "/spaced/" checked  data-x = y >s</a >',
  '<![CDATA[<img src=x>]]><!DOCTYPE html><?php echo 1 ?><br/>',
];

/**
 * Every tag sanitize-html's parser opens, with its attributes, under the options sanitize.ts gives it (a
 * copy: the sanitizer then deletes from them what it drops).
 */
function sanitizerTags(html: string): [string, Record<string, string>][] {
  const tags: [string, Record<string, string>][] = [];
  sanitizeHtml(html, {
    parser: { ...HTML_PARSER_OPTIONS },
    onOpenTag: (name, attribs) => tags.push([name, { ...attribs }]),
  });
  return tags;
}

describe('openingTags', () => {
  for (const html of SNIPPETS) {
    it(`reads what the sanitizer reads in ${html}`, () => {
      const ours = openingTags(html).map((t) => [
        t.name,
        Object.fromEntries(t.attributes.map((a) => [a.name, a.value])),
      ]);
      expect(ours).toEqual(sanitizerTags(html));
    });
  }

  it('gives the offsets of what was written: the tag, each attribute and its value with its quotes', () => {
    for (const html of SNIPPETS) {
      for (const tag of openingTags(html)) {
        expect(html.slice(tag.offset, tag.offset + tag.name.length + 1).toLowerCase(), html).toBe(`<${tag.name}`);
        for (const a of tag.attributes) {
          expect(html.slice(a.offset, a.offset + a.name.length).toLowerCase(), html).toBe(a.name);
          expect(html.slice(a.valueStart, a.valueEnd).replace(/^(["'])(.*)\1$/s, '$2'), html).toBe(a.written);
        }
      }
    }
  });

  it('ends a script where its end tag ends, and gives none to an element closed without one', () => {
    const html = '<div><script>x</script foo><p>para<br></div>';
    expect(openingTags(html).map((t) => [t.name, t.end && html.slice(t.offset, t.end)])).toEqual([
      ['div', html],
      ['script', '<script>x</script foo>'],
      ['p', undefined],
      ['br', undefined],
    ]);
  });

  it('reads a tag the snippet ends inside, with the attributes read before the end', () => {
    expect(openingTags('<p>x</p><div class="note" style="x"\n')).toMatchObject([
      { name: 'p' },
      { name: 'div', offset: 8, attributes: [{ name: 'class' }, { name: 'style', value: 'x' }] },
    ]);
  });
});
