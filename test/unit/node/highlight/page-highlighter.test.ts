import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { formatDiagnostic } from '../../../../src/node/diagnostics';
import { PageHighlighter } from '../../../../src/node/highlight/page-highlighter';
import { CodeHighlighter } from '../../../../src/node/highlight/code-highlighter';
import { pagePass } from '../../../helpers/page-pass';
import { buildTree, makeTree } from '../../../helpers/tree';

const LANGUAGES = ['js', 'python', 'bash', 'json', 'yaml', 'text'];

/** 45 pages, each with code in two languages, one block shared by every page, and one unknown language. */
function pages(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 45; i++) {
    const a = LANGUAGES[i % LANGUAGES.length] ?? 'js';
    const b = LANGUAGES[(i + 1) % LANGUAGES.length] ?? 'js';
    files[`page-${i}.md`] = [
      `# Page ${i}`,
      '',
      `\`\`\`${a} {1}`,
      `const value${i} = "page ${i}"; // ${a}`,
      'run --flag <x> && echo "$HOME"',
      '```',
      '',
      `\`\`\`${b}`,
      `value_${i}: ${i}`,
      '```',
      '',
      '```js',
      'export default { run() { return 1; } };',
      '```',
      '',
      `\`\`\`klingon`,
      'DISPLAY "HELLO".',
      '```',
      '',
    ].join('\n');
  }
  return files;
}

/** Makes the pages of `<root>/content` as the build does, with this many page threads and this cache folder. */
async function render(root: string, threads: number, cacheDir?: string) {
  const highlighter = await PageHighlighter.load(cacheDir);
  const { diagnostics, made } = await pagePass(root, highlighter, { threads });
  await highlighter.save();
  const pages = made.map(({ page }) => page);
  const saved = cacheDir
    ? (JSON.parse(await readFile(path.join(cacheDir, 'highlight.json'), 'utf8')) as { entries: Record<string, string> })
    : undefined;
  return {
    pages: pages.map((page) => ({ route: page.route, html: page.html.read(), hash: page.hash })),
    diagnostics: diagnostics.sorted().map(formatDiagnostic),
    cached: Object.entries(saved?.entries ?? {}).sort(([a], [b]) => a.localeCompare(b)),
  };
}

describe('highlighting the code blocks of the page pass', () => {
  it('gives the same fragments, problems and cache entries on page threads as on its own thread', async () => {
    const root = await makeTree(pages());
    const here = await render(root, 0, path.join(root, 'here'));
    const onThreads = await render(root, 2, path.join(root, 'threads'));
    const output = ({ pages, diagnostics, cached }: typeof here) => ({ pages, diagnostics, cached });
    expect(output(onThreads)).toEqual(output(here));
    expect(here.pages).toHaveLength(45);
    expect(here.pages[0]?.html).toMatch(/<span class="line c-[0-9a-f]+-[0-9a-f]+ hl">/);
    expect(here.pages[0]?.html).toMatch(/<span class="c-[0-9a-f]+-[0-9a-f]+">const<\/span>/);
    expect(here.diagnostics.filter((d) => d.includes('unknown code language "klingon"'))).toHaveLength(45);
    // One entry per distinct highlighted block: plain text is not cached, and the block every page
    // shares is highlighted once.
    const plainBlocks =
      Object.values(pages())
        .join('')
        .match(/```text/g)?.length ?? 0;
    expect(here.cached.length).toBe(45 * 2 - plainBlocks + 1);
  }, 120_000);

  it('highlights only the blocks the cache lacks, and keeps only the blocks the build used', async () => {
    const root = await makeTree(pages());
    const cacheDir = path.join(root, 'cache');
    const cold = await render(root, 1, cacheDir);
    const warm = await render(root, 1, cacheDir);
    expect(warm.pages).toEqual(cold.pages);
    expect(warm.cached).toEqual(cold.cached);

    await writeFile(path.join(root, 'content/page-0.md'), '# Page 0\n\n```js\nconst edited = true;\n```\n');
    const edited = await render(root, 1, cacheDir);
    expect(edited.pages.find((page) => page.route === '/page-0/')?.html).toMatch(
      /<span class="c-[0-9a-f]+-[0-9a-f]+">const<\/span>/,
    );
    expect(edited.pages.find((page) => page.route === '/page-0/')?.html).toMatch(/edited/);
    // Page 0's two blocks of its own are gone from the cache, its new one is in.
    const before = new Set(cold.cached.map(([key]) => key));
    expect(edited.cached.filter(([key]) => !before.has(key))).toHaveLength(1);
    expect(edited.cached.length).toBe(cold.cached.length - 2 + 1);
  }, 120_000);

  it('lets shiki go when a build is done with it, and starts it again for a page that comes after', async () => {
    const highlighter = await PageHighlighter.load(undefined);
    const block = 'const a = 1;\n';
    await highlighter.prepare(['js', 'markdown']);
    const coloured = highlighter.block(block, 'js', new Set()).html;
    expect(coloured).toContain('<span class=');
    const dispose = vi.spyOn(CodeHighlighter.prototype, 'dispose');
    try {
      await highlighter.dispose();
      expect(dispose).toHaveBeenCalledTimes(1);
      await highlighter.prepare(['js']);
      expect(highlighter.block('let b = 2;\n', 'js', new Set()).html).toContain('<span class=');
      // A build lets its highlighter go too, so that a process that builds again does not gather them.
      await buildTree(await makeTree({ 'README.md': '# Home\n\n```md\n# A title\n```\n' }), { analyzeThreads: 0 });
      expect(dispose).toHaveBeenCalledTimes(2);
    } finally {
      dispose.mockRestore();
    }
  });
});
