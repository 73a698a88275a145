import { readdirSync, readFileSync } from 'node:fs';
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
  it('is MathML made at build time, on pages with raw HTML too, with prices and \\$ left as text', async () => {
    for (const extra of ['', '\n<kbd>Ctrl</kbd> and raw HTML.\n']) {
      const root = await makeTree({ '_site.yaml': 'title: Docs\n', 'README.md': PAGE + extra });
      expect(messages(await buildTree(root))).toEqual([]);
      const html = readFileSync(path.join(root, 'dist/index.html'), 'utf8');
      expect(html).toContain(
        '<span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mo stretchy="false">⌈</mo>',
      );
      expect(html).toMatch(/<div class="math-display" tabindex="0"><span class="katex"><math [^>]*display="block">/);
      expect(html).toContain('the plan costs $19 a month, or $190 a year, and $5 buys more.');
      // The diagrams on the same page are inline SVG in CSS-variable colours.
      expect(html.match(/<figure class="diagram"[^>]*><svg role="img"/g)).toHaveLength(2);
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
