import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { marked } from 'marked';
import { createHighlighter, type BundledLanguage } from 'shiki';
import { describe, expect, it } from 'vitest';
import { CodeHighlighter, TOKENIZE_TIME_LIMIT_MS } from '../../../../src/node/highlight/code-highlighter';
import { HIGHLIGHT_LANGUAGES, LANGUAGE_NAMES } from '../../../../src/node/highlight/languages';
import { THEMES } from '../../../../src/node/highlight/themes';
import { escapeHtml } from '../../../../src/node/analyze/markdown/escape';
import { projectRoot } from '../../../helpers/tree';

const SAMPLE = `import x from "y"; // comment
export default { async run({ steps, $ }) { const a = 1 + \`t\${b}\`; return /r/g ?? null; } }
def f(x): """doc""" return x  # comment
echo "$HOME" && curl -X POST https://example.com <<EOF
{"a": 1, "b": true, "c": null}
key: "value" # comment
package main; func main() { fmt.Println("x") }
SELECT * FROM t WHERE a = 1;

<div class="a">x</div> .a { color: red; } public static void main(String[] args) {}
+ added
- removed`;

/** Every fenced code block of the repository's content, with a language the build highlights. */
function contentBlocks(): { code: string; lang: string }[] {
  const blocks: { code: string; lang: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.md')) {
        marked.walkTokens(marked.lexer(readFileSync(file, 'utf8')), (token) => {
          const lang = token.type === 'code' ? /^[^\s{]*/.exec(token.lang ?? '')?.[0].toLowerCase() : undefined;
          if (token.type === 'code' && lang && LANGUAGE_NAMES.has(lang)) blocks.push({ code: token.text, lang });
        });
      }
    }
  };
  walk(path.join(projectRoot, 'content'));
  return blocks;
}

/** shiki's own two-theme tokenization of a block, in the build's markup: what the highlighter must match. */
async function shikiReference(more: string[] = []): Promise<(code: string, lang: string) => string> {
  const langs = [...HIGHLIGHT_LANGUAGES, ...more];
  const shiki = await createHighlighter({ themes: [THEMES.light, THEMES.dark], langs });
  const colour = (c: string | undefined) => (c ?? '#000000').replace('#', '').toLowerCase();
  // The themes' own text colour: each line carries it, and a token in it has no span of its own.
  const plain = `c-${colour(shiki.getTheme(THEMES.light).fg)}-${colour(shiki.getTheme(THEMES.dark).fg)}`;
  return (code, lang) =>
    shiki
      .codeToTokensWithThemes(code, {
        lang: lang as BundledLanguage,
        themes: THEMES,
        // The same limit as the build's, so that a busy machine cuts neither side's lines short.
        tokenizeTimeLimit: TOKENIZE_TIME_LIMIT_MS,
      })
      .map((tokens) => {
        const spans: { classes: string; text: string }[] = [];
        for (const token of tokens) {
          const style = token.variants['light']?.fontStyle ?? 0;
          const classes = `c-${colour(token.variants['light']?.color)}-${colour(token.variants['dark']?.color)}${style & 1 ? ' fi' : ''}${style & 2 ? ' fb' : ''}`;
          const last = spans.at(-1);
          if (last?.classes === classes) last.text += token.content;
          else spans.push({ classes, text: token.content });
        }
        const line = spans
          .map((s) =>
            s.classes === plain ? escapeHtml(s.text) : `<span class="${s.classes}">${escapeHtml(s.text)}</span>`,
          )
          .join('');
        return `<span class="line ${plain}">${line}</span>`;
      })
      .join('\n');
}

describe('the highlighter', () => {
  it("gives every token the colours of shiki's own two-theme tokenization, from one pass", async () => {
    const content = contentBlocks();
    // The content's other languages too, each grammar loaded as the build loads it, when first used.
    const more = [...new Set(content.map((block) => block.lang))];
    const reference = await shikiReference(more);
    const highlighter = await CodeHighlighter.create();
    await highlighter.loadLanguages(more);
    const blocks = [...HIGHLIGHT_LANGUAGES.map((lang) => ({ code: SAMPLE, lang })), ...content];
    expect(blocks.length).toBeGreaterThan(500);
    const differing = blocks.filter(
      ({ code, lang }) => highlighter.highlight(code, lang, new Set()) !== reference(code, lang),
    );
    expect(differing.map(({ lang, code }) => `${lang}: ${code.slice(0, 60)}`)).toEqual([]);
  }, 120_000);

  it('tokenizes a line it has seen again when it comes in another grammar state', async () => {
    const reference = await shikiReference();
    const highlighter = await CodeHighlighter.create();
    // The same line outside a template string, inside one, and outside again.
    const code = 'total = 1 + 2; // sum\nconst text = `\ntotal = 1 + 2; // sum\n`;\ntotal = 1 + 2; // sum';
    const html = highlighter.highlight(code, 'js', new Set());
    expect(html).toBe(reference(code, 'js'));
    const lines = html.split('\n');
    expect(lines[2]).not.toBe(lines[0]);
    expect(lines[4]).toBe(lines[0]);
  });

  it('colours a block the same whatever languages the pages before it loaded', async () => {
    // Markdown embeds the languages of its fences and front matter only when they are loaded, and Vue
    // injects itself into Markdown: a shared highlighter would colour this block by what came before it.
    const block =
      '---\ntitle: Hello\n---\n\n# {{ $frontmatter.title }}\n\n```js\nconst a = 1;\n```\n\n```ruby\nputs 1\n```\n';
    const first = await CodeHighlighter.create(undefined, { languages: [] });
    await first.loadLanguages(['markdown']);
    const alone = first.highlight(block, 'markdown', new Set());
    const after = await CodeHighlighter.create(undefined, { languages: [] });
    await after.loadLanguages(['ruby', 'vue', 'yaml']);
    await after.loadLanguages(['md']);
    expect(after.highlight(block, 'markdown', new Set())).toBe(alone);
    await after.loadLanguages(['javascript', 'nix']);
    expect(after.highlight(block, 'md', new Set())).toBe(alone);
    // With the languages every highlighter loads up front: the fence of JavaScript and the front matter
    // coloured, Ruby's plain, as shiki colours it with those languages alone.
    expect(alone).toBe((await shikiReference())(block, 'markdown'));
    expect(alone).toMatch(/<span class="[^"]+">const<\/span>/);
    expect(alone).toMatch(/>puts 1</);
  });
});
