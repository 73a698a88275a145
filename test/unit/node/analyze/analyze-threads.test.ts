import { availableParallelism } from 'node:os';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeFile } from '../../../../src/node/analyze/analyze-file';
import { analyzePages } from '../../../../src/node/analyze/analyze-pages';
import { pagePassShare, startAnalyzeThreads } from '../../../../src/node/analyze/analyze-threads';
import type { CompletePage } from '../../../../src/node/analyze/page-record';
import { heldSearch, SearchTermNumbers, storedSearchSink } from '../../../../src/node/analyze/stored-search';
import { TextStore } from '../../../../src/node/analyze/text-store';
import { DiagnosticList, formatDiagnostic } from '../../../../src/node/diagnostics';
import { PageHighlighter } from '../../../../src/node/highlight/page-highlighter';
import { scanContent } from '../../../../src/node/scan/scan';
import { buildOutput } from '../../../helpers/output';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

/**
 * 24 pages with code (a block every page shares, one of their own with a marked line, plain text, a
 * language nobody highlights), raw HTML, a constant and links; and pages with problems: no title, a file
 * that is not UTF-8, a body that only redirects.
 */
function tree(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {
    '_site.yaml': 'title: Threads\nconstants:\n  VERSION: "2.4"\n',
    'README.md': '# Home\n\nSee [page 3](./page-3.md) for version {{ VERSION }}.\n',
    'untitled.md': 'Text without a heading.\n',
    'latin1.md': Uint8Array.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]),
    'moved.md': '<script>window.location.href = "/page-2/";</script>\n',
  };
  for (let i = 0; i < 24; i++) {
    files[`page-${i}.md`] = [
      `# Page ${i}`,
      '',
      `Version {{ VERSION }}, see [the next page](./page-${(i + 1) % 24}.md) and [a missing one](./gone-${i}.md).`,
      '',
      '```js',
      'export default { run() { return 1; } };',
      '```',
      '',
      '```python {2}',
      `def page_${i}():`,
      `    return "page ${i}"`,
      '```',
      '',
      '```text',
      `plain ${i} <b>`,
      '```',
      '',
      '```klingon',
      'DISPLAY "HELLO".',
      '```',
      '',
      `<div class="note" onclick="alert(1)">Raw <em>HTML</em> ${i}</div>`,
      '',
    ].join('\n');
  }
  return files;
}

describe('the page pass on page threads', () => {
  it('makes a build write the same site, with the same problems in the same order, as on one thread', async () => {
    const [here, onThreads] = [await makeTree(tree()), await makeTree(tree())];
    const oneThread = await buildTree(here, { analyzeThreads: 0, strict: false });
    const twoThreads = await buildTree(onThreads, { analyzeThreads: 2, strict: false });
    expect(twoThreads.ok).toBe(true);
    expect(messages(twoThreads)).toEqual(messages(oneThread));
    expect(messages(twoThreads)).toEqual(
      expect.arrayContaining([
        'latin1.md:1:6 warning: file is not valid UTF-8: save it with UTF-8 encoding',
        'page-5.md:18:1 warning: unknown code language "klingon", shown as plain text',
        'untitled.md:1:1 warning: page has no title: "Untitled", from its file name, is used',
      ]),
    );
    const written = await buildOutput(onThreads);
    expect(written).toEqual(await buildOutput(here));
    const fragments = [...written].filter(([file]) => /^dist\/assets\/js\/page\.[^/]+\.html$/.test(file));
    const fragment = fragments.find(([, text]) => text.includes('page_7'))?.[1];
    expect(fragment).toMatch(/<span class="line c-[0-9a-f]+-[0-9a-f]+ hl">/);
    expect(fragment).toContain('Version 2.4');
  });

  it('give every page as this thread gives it: fragment, code, markdown, search terms and problems', async () => {
    const root = await makeTree(tree());
    const files = await scanContent(path.join(root, 'content'), new DiagnosticList());
    const settings = { base: '/docs/', constants: { VERSION: '2.4' }, strict: true };
    const texts = new TextStore(path.join(root, 'cache'));
    const cacheDir = path.join(root, 'highlight');
    const highlighter = await PageHighlighter.load(cacheDir);
    const workerData = { settings, strict: true, highlighting: await highlighter.forThreads() };
    // The threads' pages have their terms stored as the render cache keeps them; read back, the same.
    const search = storedSearchSink(texts, new SearchTermNumbers());
    const threads = await startAnalyzeThreads(2, workerData, highlighter, { texts, search });
    try {
      const onThreads = await Promise.all(files.map((file) => threads.analyze(file)));
      // A highlighter of its own, so that the threads' blocks count in the cache of the first alone.
      const site = { ...settings, highlighter: await PageHighlighter.load(undefined), texts, search: heldSearch };
      const here = await Promise.all(files.map((file) => analyzeFile(file, site, true)));
      const plain = ({
        page,
        problems,
        code,
      }: {
        page: CompletePage | undefined;
        problems: unknown;
        code: string[];
      }) => {
        if (!page) return { page, problems, code };
        const { html, markdown, search, ...rest } = page;
        return { ...rest, html: html.read(), markdown: markdown.read(), search: search.read(), problems, code };
      };
      expect(onThreads.map(plain)).toEqual(here.map(plain));
      expect(onThreads.filter(({ page }) => page)).toHaveLength(files.length - 2);
      expect(onThreads.flatMap(({ problems }) => problems.map(formatDiagnostic))).toContain(
        'untitled.md:1:1 page has no title: add "title:" to the frontmatter or a "# Heading"',
      );
      // The threads' blocks are kept in this thread's cache: two per page, and the one every page shares.
      await highlighter.save();
      const saved = JSON.parse(await readFile(path.join(cacheDir, 'highlight.json'), 'utf8')) as {
        entries: Record<string, string>;
      };
      expect(Object.keys(saved.entries)).toHaveLength(24 + 1);
    } finally {
      await threads.stop();
      texts.close();
    }
  });

  it('are left out for a small site or a warm build with few files to analyze, and used for a large one', () => {
    expect([1, 130, 1499].map((files) => pagePassShare(files))).toEqual(Array(3).fill({ threads: 0, here: true }));
    // A large site: every core a thread, and the build's own thread hands out the work.
    expect(pagePassShare(10_000)).toEqual({ threads: availableParallelism(), here: false });
    // With every block still to highlight, a page costs more: threads pay off on a smaller site, and the
    // build's own thread makes pages beside them, on a core of its own.
    expect(pagePassShare(10, true)).toEqual({ threads: 0, here: true });
    expect(pagePassShare(141, true)).toEqual({ threads: 0, here: true });
    expect(pagePassShare(1000, true)).toEqual({ threads: Math.max(1, availableParallelism() - 1), here: true });
  });

  it('fails the pass naming the file when analyzing it fails on a thread', async () => {
    const root = await makeTree(tree());
    const diagnostics = new DiagnosticList();
    const files = await scanContent(path.join(root, 'content'), diagnostics);
    // Removed after the scan: reading it throws, a fault and no content problem.
    await rm(path.join(root, 'content', 'page-9.md'));
    const highlighter = await PageHighlighter.load(undefined);
    const texts = new TextStore(path.join(root, 'cache'));
    const settings = { base: '/docs/', constants: {}, strict: true };
    const options = { settings, highlighter, texts, search: heldSearch, diagnostics, threads: 2 };
    await expect(analyzePages(files, options)).rejects.toThrow(/^analyzing page-9\.md: ENOENT/);
    texts.close();
  });
});
