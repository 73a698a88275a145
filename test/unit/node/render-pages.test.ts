import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPages, startHighlighting } from '../../../src/node/content/render-pages';
import { scanContent } from '../../../src/node/content/scan';
import { DiagnosticList, formatDiagnostic } from '../../../src/node/diagnostics';
import { HighlightCache } from '../../../src/node/highlight/cache';
import { copyOfSrc, makeTree, projectRoot } from '../../helpers/tree';

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
      `\`\`\`cobol`,
      'DISPLAY "HELLO".',
      '```',
      '',
    ].join('\n');
  }
  return files;
}

/** Renders `<root>/content` with this many highlight threads and this cache (by default a new one). */
async function render(root: string, threads: number, srcDir = path.join(projectRoot, 'src'), cacheFile?: string) {
  const diagnostics = new DiagnosticList();
  const files = await scanContent(path.join(root, 'content'), diagnostics);
  const cache = await HighlightCache.load(cacheFile);
  const highlighting = await startHighlighting(files.length, { cache, srcDir, threads });
  const { pages: rendered, highlighted } = await renderPages(files, highlighting, {
    settings: { base: '/docs/', constants: {}, strict: true },
    diagnostics,
  });
  await highlighted;
  return {
    pages: rendered.map((page) => ({ route: page.route, html: page.html, hash: page.hash })),
    diagnostics: diagnostics.sorted().map(formatDiagnostic),
    cached: cache.usedEntries().sort(([a], [b]) => a.localeCompare(b)),
    threadsStarted: highlighting.pool?.threadCount,
    saveCache: () => cache.save(),
  };
}

describe('rendering pages', () => {
  it('gives the same fragments, problems and cache entries on highlight threads as on its own thread', async () => {
    const root = await makeTree(pages());
    const here = await render(root, 0);
    const onThreads = await render(root, 2);
    const output = ({ pages, diagnostics, cached }: typeof here) => ({ pages, diagnostics, cached });
    expect(output(onThreads)).toEqual(output(here));
    expect(here.pages).toHaveLength(45);
    expect(here.pages[0]?.html).toContain('<span class="line hl">');
    expect(here.pages[0]?.html).toMatch(/<span class="c-[0-9a-f]+-[0-9a-f]+">const<\/span>/);
    expect(here.diagnostics.filter((d) => d.includes('unknown code language "cobol"'))).toHaveLength(45);
    // One entry per distinct highlighted block: plain text is not cached, and the block every page
    // shares is highlighted once.
    const plainBlocks =
      Object.values(pages())
        .join('')
        .match(/```text/g)?.length ?? 0;
    expect(here.cached.length).toBe(45 * 2 - plainBlocks + 1);
  }, 60_000);

  it('starts no highlight thread when every block is in the cache, and one at the first it lacks', async () => {
    const root = await makeTree(pages());
    const cacheFile = path.join(root, 'highlight.json');
    const src = path.join(projectRoot, 'src');
    const cold = await render(root, 1, src, cacheFile);
    expect(cold.threadsStarted).toBe(1);
    await cold.saveCache();

    const warm = await render(root, 1, src, cacheFile);
    expect(warm.threadsStarted).toBe(0);
    expect(warm.pages).toEqual(cold.pages);

    await writeFile(path.join(root, 'content/page-0.md'), '# Page 0\n\n```js\nconst edited = true;\n```\n');
    const edited = await render(root, 1, src, cacheFile);
    expect(edited.threadsStarted).toBe(1);
    expect(edited.pages.find((page) => page.route === '/page-0/')?.html).toMatch(/edited/);
  }, 60_000);

  it('has started every highlight thread it will use by the time it returns the pages', async () => {
    // Over 300 KB of code still waiting once the pages are rendered (the first thread has two batches of 16
    // blocks at most): a second thread joins then, and what the build reads to decide whether a core is
    // free for prerendering must already count it.
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) {
      const lines = Array.from({ length: 160 }, (_, n) => `  const value${i}_${n} = compute(${n}, "page ${i}");`);
      files[`page-${i}.md`] = `# Page ${i}\n\n\`\`\`js\nfunction run${i}() {\n${lines.join('\n')}\n}\n\`\`\`\n`;
    }
    const root = await makeTree(files);
    const scanned = await scanContent(path.join(root, 'content'), new DiagnosticList());
    const highlighting = await startHighlighting(scanned.length, {
      cache: await HighlightCache.load(),
      srcDir: path.join(projectRoot, 'src'),
      threads: 2,
    });
    const rendered = await renderPages(scanned, highlighting, {
      settings: { base: '/docs/', constants: {}, strict: true },
      diagnostics: new DiagnosticList(),
    });
    const { coreToSpare } = rendered;
    await rendered.highlighted;
    expect(highlighting.pool?.threadCount).toBe(2);
    expect(coreToSpare).toBe(2 < availableParallelism());
  }, 60_000);

  it('fails with the error a highlight thread throws, and leaves no thread bundle behind', async () => {
    const src = await copyOfSrc({
      'node/markdown/highlight-worker.ts': "throw new Error('highlight thread broke');\n",
    });
    const tree = await makeTree({ 'README.md': '# Home\n\n```js\nconst a = 1;\n```\n' });
    await expect(render(tree, 1, path.join(src, 'src'))).rejects.toThrow(
      /a highlight thread failed: .*highlight thread broke/s,
    );
    const bundles = path.join(src, 'node_modules/.cache/docs-bundles');
    expect(existsSync(bundles) ? readdirSync(bundles) : []).toEqual([]);
  });
});
