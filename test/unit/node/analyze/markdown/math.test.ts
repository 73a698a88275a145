import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, makeTree, messages } from '../../../../helpers/tree';

const DISPLAY = '$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$';

const PAGE = [
  '# Limits and maths',
  '',
  'An execution costs $\\lceil t / 30 \\rceil$ credits; the plan costs $19 a month, or $190 a year, and \\$5 buys more.',
  '',
  DISPLAY,
  '',
  'A retry moves along $\\overrightarrow{AB}$.',
  '',
  '```mermaid',
  'flowchart LR',
  '  trigger[Trigger] --> step[Step]',
  '```',
  '',
  '```mermaid',
  'sequenceDiagram',
  '  Client->>API: GET /v1/users/me',
  '```',
  '',
].join('\n');

describe('math', () => {
  it('is KaTeX HTML and MathML made at build time, on pages with raw HTML too, with prices and \\$ left as text', async () => {
    for (const extra of ['', '\n<kbd>Ctrl</kbd> and raw HTML.\n']) {
      const root = await makeTree({
        '_site.yaml': 'title: Docs\n',
        'README.md': PAGE + extra,
        'plain.md': '# Plain\n',
      });
      expect(messages(await buildTree(root))).toEqual([]);
      const html = readFileSync(path.join(root, 'dist/index.html'), 'utf8');
      expect(html).toContain(
        '<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mo stretchy="false">⌈</mo>',
      );
      expect(html).toMatch(
        /<div class="math-display" tabindex="0"><span class="katex-display"><span class="katex"><span class="katex-mathml"><math [^>]*display="block">/,
      );
      // KaTeX's HTML places its glyphs with classes the site's stylesheet defines, not inline styles.
      expect(html).toContain(
        '<span class="katex-html" aria-hidden="true"><span class="base"><span class="strut ks-height_',
      );
      expect(html).not.toMatch(/<span[^>]* style="/);
      // The SVG KaTeX draws a stretchy arrow with is the build's: the sanitizer keeps it too.
      expect(html).toMatch(/<span class="hide-tail[^"]*"><svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="400em"/);
      const css = (name: string) => readFileSync(path.join(root, 'dist', name), 'utf8');
      const siteCss = /<link rel="stylesheet" href="\/docs\/(assets\/css\/app\.[0-9a-f]{8}\.css)">/.exec(html)?.[1];
      const classes = new Set([...html.matchAll(/ks-[a-z-]+_[^" ]+/g)].map((m) => m[0]));
      expect(classes.size).toBeGreaterThan(3);
      for (const name of classes) expect(css(siteCss!)).toContain(`.${name.replace(/[.%#]/g, (c) => `\\${c}`)}{`);
      // KaTeX's stylesheet and fonts are served from the site, linked only by pages with math.
      const katexCss = /<link rel="stylesheet" href="\/docs\/(assets\/css\/katex\.[0-9a-f]{8}\.css)">/.exec(html)?.[1];
      expect(katexCss).toBeDefined();
      const fonts = [...css(katexCss!).matchAll(/url\(\.\.\/(fonts\/[^)]+)\)/g)].map((m) => m[1]!);
      expect(fonts.length).toBeGreaterThan(10);
      for (const font of fonts) {
        expect(font).toMatch(/^fonts\/KaTeX_[A-Za-z0-9_-]+\.[0-9a-f]{8}\.woff2$/);
        expect(existsSync(path.join(root, 'dist/assets', font))).toBe(true);
      }
      expect(readFileSync(path.join(root, 'dist/plain/index.html'), 'utf8')).not.toContain('katex');
      expect(html).toContain('the plan costs $19 a month, or $190 a year, and $5 buys more.');
      // The diagrams on the same page are inline SVG in CSS-variable colours.
      expect(html.match(/<figure class="diagram"[^>]*><svg data-diagram="[^"]+" role="img"/g)).toHaveLength(2);
      expect(html).toContain('stroke="var(--_node-stroke)"');
      // The twin keeps the TeX and the mermaid source as written.
      const twin = readFileSync(path.join(root, 'dist/index.md'), 'utf8');
      expect(twin).toContain('$\\lceil t / 30 \\rceil$');
      expect(twin).toContain(DISPLAY);
      expect(twin).toContain('```mermaid\nflowchart LR');
      // Neither KaTeX nor mermaid code reaches the browser.
      const js = path.join(root, 'dist/assets/js');
      const scripts = readdirSync(js, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
      const text = scripts.map((file) => readFileSync(path.join(js, file), 'utf8')).join('\n');
      expect(text).not.toMatch(/katex|mermaid|elkjs/i);
    }
  });

  it('fails the build at the place of a formula that does not parse, with KaTeX words', async () => {
    const page = '# Bad\n\nA sum $\\frac{1}{2$ here.\n\n$$\n\\sqrt{x} \\unknown\n$$\n';
    const root = await makeTree({ '_site.yaml': 'title: Docs\n', 'README.md': page });
    const result = await buildTree(root);
    expect(result.ok).toBe(false);
    expect(messages(result)).toEqual([
      "README.md:3:18 TeX does not parse: Unexpected end of input in a macro argument, expected '}'",
      'README.md:6:10 TeX does not parse: Undefined control sequence: \\unknown',
    ]);
  });
});
