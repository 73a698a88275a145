import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePages } from '../../../../src/node/analyze/analyze-pages';
import type { AheadPage } from '../../../../src/node/analyze/render-cache';
import { TextStore } from '../../../../src/node/analyze/text-store';
import { DiagnosticList } from '../../../../src/node/diagnostics';
import { PageHighlighter } from '../../../../src/node/highlight/page-highlighter';
import { pagesAhead } from '../../../../src/node/versions/pages-ahead';
import { folderFiles } from '../../../../src/node/versions/version-mark';
import { buildTree, makeTree, messages } from '../../../helpers/tree';
import { CURRENT_AND_V1 } from '../../../helpers/versions';
import { heldSearch } from '../../../../src/node/analyze/stored-search';

const folder = (root: string, name: string) => {
  const contentDir = path.join(root, name);
  return { contentDir, files: folderFiles(contentDir) };
};

describe('the pages a first version makes for the versions after it', () => {
  it('are the later page files of another size or path than its own, once each, of versions made with its settings', async () => {
    const root = await makeTree({
      'README.md': '# Home\n',
      '../v1/_site.yaml': 'title: One\nconstants:\n  LIMIT: "5"\n',
      '../v1/README.md': '# Home\n',
      '../v1/guide.md': '# Guide\n',
      '../v1/image.png': 'not a page',
      // Its own title and redirects, the same page settings: its changed and new pages are made ahead.
      '../v2/_site.yaml': 'title: Two\nconstants:\n  LIMIT: "5"\n',
      '../v2/README.md': '# Home\n',
      '../v2/guide.md': '# Guide, longer\n',
      '../v2/new.md': '# New\n',
      '../v2/image.png': 'another image',
      // The same change again, and a page that differs at the same size (made by its own version).
      '../v3/_site.yaml': 'title: Three\nconstants:\n  LIMIT: "5"\n',
      '../v3/guide.md': '# Guide, longer\n',
      '../v3/README.md': '# Hxme\n',
      // Another constant: its pages would not be the same pages, so none is made for it.
      '../v4/_site.yaml': 'title: Four\nconstants:\n  LIMIT: "6"\n',
      '../v4/other.md': '# Other\n',
    });
    const ahead = await pagesAhead(
      folder(root, 'v1'),
      ['v2', 'v3', 'v4'].map((name) => folder(root, name)),
    );
    expect(ahead.map((file) => path.relative(root, file.absolutePath)).sort()).toEqual([
      path.join('v2', 'guide.md'),
      path.join('v2', 'new.md'),
    ]);
    expect(ahead.map((file) => file.relativePath).sort()).toEqual(['guide.md', 'new.md']);
  });

  it('are made in its page pass, so the later version reuses them, with their own problems under its name', async () => {
    const root = await makeTree({
      '_site.yaml': `title: Docs\n${CURRENT_AND_V1}`,
      'README.md': '# Home\n\nSee the [guide](guide.md).\n',
      'guide.md': '# Guide\n\nThe new guide, with [a broken link](missing.md).\n\n<foo-bar>x</foo-bar>\n',
      '../v1/README.md': '# Home v1\n\nSee the [guide](guide.md).\n',
      '../v1/guide.md': '# Guide v1\n\nThe old guide.\n',
    });
    const log: string[] = [];
    const result = await buildTree(root, { strict: false, log: (line) => log.push(line) });
    // The current version's pages were made in v1's pass: its own finds every one in the cache.
    expect(log).toContain('2 of 2 pages made already, from the render cache');
    expect(result.rendered).toBe(4);
    // The problems are the current version's, reported once, at its own file: the page pass's one too, kept
    // with the page in the cache.
    expect(messages(result)).toEqual([
      'guide.md:3:21 warning: broken link "missing.md": no page at /missing/',
      'guide.md:5:1 warning: <foo-bar> is not allowed in pages and was removed',
    ]);
    expect(readFileSync(path.join(root, 'dist/guide/index.html'), 'utf8')).toContain('The new guide');
    expect(readFileSync(path.join(root, 'dist/v1/guide/index.html'), 'utf8')).toContain('The old guide');
  });

  it("fail nothing in the pass that makes them: a file gone meanwhile is its own version's to report", async () => {
    const root = await makeTree({ 'README.md': '# Home\n', '../v2/guide.md': '# Guide\n' });
    const own = [{ absolutePath: path.join(root, 'content', 'README.md'), relativePath: 'README.md' }];
    const later = (name: string) => ({ absolutePath: path.join(root, 'v2', name), relativePath: name });
    const ahead = { files: [later('gone.md'), later('guide.md')], made: [] as AheadPage[] };
    const diagnostics = new DiagnosticList();
    const texts = new TextStore(path.join(root, 'cache'));
    try {
      const pages = await analyzePages(own, {
        settings: { base: '/docs/', constants: {}, strict: true },
        highlighter: await PageHighlighter.load(undefined),
        texts,
        search: heldSearch,
        diagnostics,
        threads: 0,
        ahead,
      });
      expect(pages.map(({ page }) => page.route)).toEqual(['/']);
      expect(ahead.made.map(({ page }) => page.route)).toEqual(['/guide/']);
      expect(diagnostics.items).toEqual([]);
    } finally {
      texts.close();
    }
  });
});
