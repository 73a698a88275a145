import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodeHighlighter } from '../../../../src/node/highlight/code-highlighter';
import { codeColours } from '../../../../src/node/analyze/page-record';
import { highlightCss } from '../../../../src/node/highlight/css';
import { HIGHLIGHT_LANGUAGES } from '../../../../src/node/highlight/languages';
import { projectRoot } from '../../../helpers/tree';

/** WCAG relative luminance and contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r = 0, g = 0, bl = 0] = (hex.replace('#', '').slice(0, 6).match(/../g) ?? []).map((h) => {
      const v = parseInt(h, 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const SAMPLE = `import x from "y"; // comment
export default { async run({ steps, $ }) { const a = 1 + \`t\${b}\`; return /r/g ?? null; } }
def f(x): """doc""" return x  # comment
echo "$HOME" && curl -X POST https://example.com
{"a": 1, "b": true, "c": null}
key: "value" # comment
package main; func main() { fmt.Println("x") }
SELECT * FROM t WHERE a = 1;
<div class="a">x</div> .a { color: red; }
+ added
- removed`;

describe('code highlighting colours', () => {
  it('keep every token at 4.5:1 or more on the code background, in both themes', async () => {
    const css = readFileSync(path.join(projectRoot, 'src/client/styles/app.css'), 'utf8');
    const backgrounds = [...css.matchAll(/--code-bg:\s*(#[0-9a-f]{6})/g)].map((m) => m[1] ?? '');
    const [lightBg, darkBg] = backgrounds;
    expect(lightBg && darkBg).toBeTruthy();
    const highlighter = await CodeHighlighter.create();
    const fragments = HIGHLIGHT_LANGUAGES.map((lang) => highlighter.highlight(SAMPLE, lang, new Set()));
    const failing: string[] = [];
    let checked = 0;
    for (const m of highlightCss(new Set(fragments.flatMap(codeColours))).matchAll(
      /\.c-([0-9a-f]{6})[0-9a-f]*-([0-9a-f]{6})[0-9a-f]*\{color:#\1/g,
    )) {
      const [, light = '', dark = ''] = m;
      checked++;
      if (contrast(`#${light}`, lightBg!) < 4.5) failing.push(`light #${light} on ${lightBg}`);
      if (contrast(`#${dark}`, darkBg!) < 4.5) failing.push(`dark #${dark} on ${darkBg}`);
    }
    expect(checked).toBeGreaterThan(5);
    expect(failing).toEqual([]);
  });

  it('switches to the dark colours on screen for a dark system preference as well as a dark choice', () => {
    const css = highlightCss(new Set(codeColours('<span class="c-0e1116-e6edf3">x</span>')));
    expect(css).toContain('@media screen{:root[data-theme=dark] .c-0e1116-e6edf3{color:#e6edf3}}');
    expect(css).toContain(
      '@media screen and (prefers-color-scheme:dark){:root:not([data-theme=light]) .c-0e1116-e6edf3{color:#e6edf3}}',
    );
  });
});
