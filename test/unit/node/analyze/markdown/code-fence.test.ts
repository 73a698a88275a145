import { mkdtemp } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fenceLanguages, parseCodeInfo } from '../../../../../src/node/analyze/markdown/code-info';
import { PageHighlighter } from '../../../../../src/node/highlight/page-highlighter';
import type { Element } from 'domhandler';
import { DomUtils } from 'htmlparser2';
import { HtmlFile } from '../../../../helpers/html';
import { buildTree, makeTree, messages } from '../../../../helpers/tree';

const PAGE = [
  '# Code from other sites',
  '',
  '```vue',
  '<template><p>{{ greeting }}</p></template>',
  '```',
  '',
  '```nginx',
  'location /docs/ { try_files $uri $uri/ =404; }',
  '```',
  '',
  '```ts:line-numbers=2 {3}',
  'const a = 1;',
  'const b = 2;',
  '```',
  '',
  '```md:no-line-numbers',
  '# Not numbered',
  '```',
  '',
].join('\n');

describe('code blocks written for other sites', () => {
  it('highlight vue and nginx, and number lines from where the fence says, with no warning', async () => {
    const root = await makeTree({ '_site.yaml': 'title: Docs\n', 'README.md': PAGE });
    expect(messages(await buildTree(root))).toEqual([]);
    const page = new HtmlFile(path.join(root, 'dist/index.html'));
    const inside = (root: Element, tag: string, className?: string) =>
      DomUtils.findAll((el) => el.name === tag && (!className || el.attribs['class'] === className), root.children);
    const blocks = page.all('div', 'code-block');
    expect(blocks.map((block) => HtmlFile.text(inside(block, 'span', 'code-lang')[0]!))).toEqual([
      'vue',
      'nginx',
      'ts',
      'md',
    ]);
    // Highlighted: the code's words carry colour classes of their own, not only the line's plain colour.
    for (const block of blocks.slice(0, 3)) {
      expect(inside(block, 'span').filter((span) => /^c-/.test(span.attribs['class'] ?? '')).length).toBeGreaterThan(2);
    }
    const numbers = blocks.map((block) => inside(block, 'pre', 'line-numbers').map(DomUtils.textContent));
    expect(numbers).toEqual([[], [], ['2\n3'], []]);
    // The numbers stay out of the code a reader copies.
    expect(DomUtils.textContent(inside(blocks[2]!, 'code')[0]!)).toBe('const a = 1;\nconst b = 2;');
  });

  it('are all numbered with `lineNumbers: true` in _site.yaml, except where the fence says not', async () => {
    const root = await makeTree({ '_site.yaml': 'title: Docs\nlineNumbers: true\n', 'README.md': PAGE });
    expect(messages(await buildTree(root))).toEqual([]);
    const html = readFileSync(path.join(root, 'dist/index.html'), 'utf8');
    expect([...html.matchAll(/<pre class="line-numbers" aria-hidden="true">([^<]*)<\/pre>/g)].map((m) => m[1])).toEqual(
      ['1', '1', '2\n3'],
    );
  });

  it('still warn, at the fence, about a language shiki does not know', async () => {
    const root = await makeTree({ '_site.yaml': 'title: Docs\n', 'README.md': '# A\n\n```js-vue\nx\n```\n' });
    expect(messages(await buildTree(root))).toEqual([
      'README.md:3:1 warning: unknown code language "js-vue", shown as plain text',
    ]);
  });
});

describe('a fence info string', () => {
  it('reads the language, the marked lines and the line numbers in either order', () => {
    expect(parseCodeInfo('ts:line-numbers=2 {1,3}')).toEqual({
      lang: 'ts',
      lines: new Set([1, 3]),
      lineNumbers: true,
      start: 2,
    });
    expect(parseCodeInfo('js{4}:line-numbers')).toEqual({
      lang: 'js',
      lines: new Set([4]),
      lineNumbers: true,
      start: 1,
    });
    expect(parseCodeInfo('md:no-line-numbers')).toEqual({ lang: 'md', lines: new Set(), lineNumbers: false, start: 1 });
    expect(parseCodeInfo('')).toEqual({ lang: '', lines: new Set(), start: 1 });
  });

  it('names the languages of a page for a highlighter that loads grammars before the page pass', () => {
    const page = '# A\n\n```vue\nx\n```\n\n> ~~~nginx:line-numbers\n> y\n> ~~~\n\n    ```not-a-fence\n';
    expect(fenceLanguages(page)).toEqual(['vue', 'nginx', 'not-a-fence']);
    // A list item may open with its fence, on the marker's line.
    const list = '- ```yaml\n  a: 1\n  ```\n\n1. ```bash\n   npm ci\n   ```\n\n> * ~~~json\n>   {}\n>   ~~~\n';
    expect(fenceLanguages(list)).toEqual(['yaml', 'bash', 'json']);
  });

  it('lets the page highlighter colour a language it loads when a page first uses it', async () => {
    const highlighter = await PageHighlighter.load(await mkdtemp(path.join(tmpdir(), 'docs-live-')));
    const plain = highlighter.block('server { listen 80; }', 'nginx', new Set()).html;
    await highlighter.prepare(['nginx']);
    const coloured = highlighter.block('server { listen 80; }', 'nginx', new Set()).html;
    expect(plain).not.toContain('<span class="c-');
    expect(coloured).toContain('<span class="c-');
  });
});
