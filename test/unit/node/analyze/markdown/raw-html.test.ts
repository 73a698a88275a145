import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeHighlighter } from '../../../../../src/node/highlight/code-highlighter';
import { renderGuidePage } from '../../../../helpers/render-page';
import { buildTree, makeTree, messages } from '../../../../helpers/tree';

/**
 * Raw HTML in a page is read once, by htmlparser2 as the sanitizer reads it: the warnings a writer gets, the
 * URLs rewritten and the HTML a reader gets follow that one reading. Most cases are markup a regex scan read
 * differently from the sanitizer, so that a writer was warned about markup the reader never got, or a link
 * the reader got was never checked or rewritten; the others (upper case, a tag a block ends inside, a tag
 * after an end tag with a space) are ones the parser's reading must get as right as the scan did.
 */

let highlighter: CodeHighlighter;
let contentDir: string;

beforeAll(async () => {
  highlighter = await CodeHighlighter.create();
  contentDir = await mkdtemp(path.join(tmpdir(), 'docs-raw-html-'));
  await mkdir(path.join(contentDir, 'guide'));
  await writeFile(path.join(contentDir, 'guide', 'diagram.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
});

afterAll(async () => {
  if (contentDir) await rm(contentDir, { recursive: true, force: true });
});

/** The page `guide/page.md` at /guide/page/, as the build renders it, with its diagnostics. */
function render(markdown: string) {
  const { page, messages: problems } = renderGuidePage(markdown, { contentDir, highlighter });
  if (!page) throw new Error(`page refused: ${problems.join('; ')}`);
  return {
    html: page.html,
    diagnostics: problems,
    links: page.analysis.links.map((l) => l.route),
  };
}

describe('raw HTML, read as the sanitizer reads it', () => {
  it('reads past a ">" in a quoted value and a quote in an unquoted one, to the link after them', () => {
    const page = render(`<div><a title="1 > 0" data-note=it's href="../other/">other</a></div>`);
    expect(page.html).toBe(`<div><a title="1 &gt; 0" data-note="it's" href="/docs/guide/other/">other</a></div>`);
    expect(page.links).toEqual(['/guide/other/']);
    expect(page.diagnostics).toEqual([]);
  });

  it('keeps an "=" in an unquoted value as part of it, not as an attribute of its own', () => {
    const page = render('<p><a href=https://example.com/search?q=docs>search</a> <img src=./diagram.png alt=a=b></p>');
    expect(page.html).toBe(
      '<p><a href="https://example.com/search?q=docs">search</a> <img src="/docs/assets/img/diagram.0f4636c7.png" decoding="async" alt="a=b" /></p>',
    );
    expect(page.diagnostics).toEqual([]);
  });

  it('leaves a comment alone, whatever tags it mentions, and what follows it in the paragraph', () => {
    const page = render('Text <!-- <script> and <a href="../gone/" onclick="x()"> --> and <b>kept</b>.');
    expect(page.html).toBe('<p>Text  and <b>kept</b>.</p>\n');
    expect(page.links).toEqual([]);
    expect(page.diagnostics).toEqual([]);
  });

  it('reads "<!-->" as a whole, empty comment: the link after it is checked, rewritten and warned about', () => {
    const page = render('<p><!--><a href="../other/" onclick="go()">other</a></p>');
    expect(page.html).toBe('<p><a href="/docs/guide/other/">other</a></p>');
    expect(page.links).toEqual(['/guide/other/']);
    expect(page.diagnostics).toEqual([
      'guide/page.md:1:29 warning: "onclick" attribute on <a> was removed: pages cannot run scripts',
    ]);
  });

  it('lower-cases tag and attribute names as the sanitizer does, for the warning and the rewritten URL', () => {
    const page = render('<P><IMG SRC="./diagram.png" ONERROR="x()" ALT="Diagram"></P>');
    expect(page.html).toBe('<p><img src="/docs/assets/img/diagram.0f4636c7.png" decoding="async" alt="Diagram" /></p>');
    expect(page.diagnostics).toEqual([
      'guide/page.md:1:29 warning: "onerror" attribute on <img> was removed: pages cannot run scripts',
    ]);
  });

  it('points at a tag right after an end tag with a space in it', () => {
    const page = render('<p><a href="../other/">x</a ><canvas></canvas></p>');
    expect(page.html).toBe('<p><a href="/docs/guide/other/">x</a></p>');
    expect(page.diagnostics).toEqual(['guide/page.md:1:30 warning: <canvas> is not allowed in pages and was removed']);
  });

  it('checks only the first of a repeated attribute, the one the reader gets', () => {
    const page = render('<p><img src="./diagram.png" src="./missing.png" alt="x"></p>');
    expect(page.html).toBe('<p><img src="/docs/assets/img/diagram.0f4636c7.png" decoding="async" alt="x" /></p>');
    expect(page.diagnostics).toEqual([]);
  });

  it('warns about a tag the block ends inside, which the sanitizer reads on into the next block', () => {
    const page = render('<div class="note" style="color: red"\n\nText');
    expect(page.html).not.toContain('style');
    expect(page.html).toMatch(/^<div class="note">/);
    expect(page.diagnostics).toEqual([
      `guide/page.md:1:19 warning: "style" attribute on <div> was removed: the site's Content-Security-Policy forbids inline styles`,
    ]);
  });

  it('ends a <script> at its end tag as the parser does, keeping the markup after it', () => {
    const page = render('<script>x()</script foo>\n<b onclick="x()">bold</b>');
    expect(page.html).toBe('\n<b>bold</b>');
    expect(page.diagnostics).toEqual([
      'guide/page.md:1:1 warning: <script> and <style> elements are not allowed in pages and were removed',
      'guide/page.md:2:4 warning: "onclick" attribute on <b> was removed: pages cannot run scripts',
    ]);
  });

  it('decodes entities in a URL as the sanitizer does, so an unsafe scheme written with them is named', () => {
    const page = render('<p><a href="&#x6A;avascript:alert(1)">x</a> <a href="java&#x09;script:alert(1)">tab</a></p>');
    expect(page.html).toBe('<p><a>x</a> <a>tab</a></p>');
    // A URL with a tab in it is left to the sanitizer, which reads it without the tab, as browsers do.
    expect(page.diagnostics).toEqual([
      'guide/page.md:1:12 warning: link "javascript:alert(1)" uses a scheme that is not allowed and was removed',
    ]);
  });

  it('counts the ids of raw HTML as anchors, like headings, and not those of elements the reader never gets', async () => {
    const root = await makeTree({
      '_site.yaml': 'title: Docs\n',
      'README.md': '# Home\n\n[Questions](./help/#still-have-questions), [old](./help/#legacy), [gone](./help/#gone)\n',
      'help.md':
        '# Help\n\n<h2 id="still-have-questions"><a href="#still-have-questions">Still have questions?</a></h2>\n\n' +
        '<p><a name="legacy">Legacy</a> <canvas id="gone"></canvas></p>\n',
    });
    const built = await buildTree(root);
    expect(messages(built).filter((m) => !m.includes('<canvas>'))).toEqual([
      'README.md:3:67 broken anchor "./help/#gone": /help/ has no heading #gone',
    ]);
  });
});
