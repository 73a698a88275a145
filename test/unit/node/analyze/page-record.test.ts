import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageRecords } from '../../../../src/node/analyze/page-record';
import { renderPages } from '../../../../src/node/analyze/analyze-pages';
import { scanContent } from '../../../../src/node/scan/scan';
import { TextStore } from '../../../../src/node/analyze/text-store';
import { contentHash } from '../../../../src/node/content-hash';
import { DiagnosticList } from '../../../../src/node/diagnostics';
import { makeTree } from '../../../helpers/tree';

describe('page records from the page pass', () => {
  it('keep the pages in order, each with its completed fragment and that fragment’s hash, and let the drafts go', async () => {
    const root = await makeTree({
      'README.md': '# Home\n\nWelcome.\n',
      'a.md': '# Alpha\n\nFirst.\n',
      'b.md': '# Beta\n\nSecond.\n',
    });
    const diagnostics = new DiagnosticList();
    const files = await scanContent(path.join(root, 'content'), diagnostics);
    // No memory budget: every text goes through the store's file, as on a large site.
    const texts = new TextStore(path.join(root, 'cache'), 0);
    const drafts = await renderPages(files, {
      settings: { base: '/docs/', constants: {}, strict: true },
      highlighter: { knows: () => true, highlight: (code) => code },
      texts,
      diagnostics,
    });
    const routes = drafts.map((draft) => draft.route);
    const pages = pageRecords(drafts, (html) => ({ html: `${html}<p>completed</p>`, codeColours: [] }), texts);
    expect(pages.map((page) => page.route)).toEqual(routes);
    for (const page of pages) {
      expect(page.html.read()).toMatch(/<p>completed<\/p>$/);
      expect(page.hash).toBe(contentHash(page.html.read()));
    }
    expect(pages.find((page) => page.route === '/a/')?.markdown.read()).toBe('# Alpha\n\nFirst.\n');
    expect(drafts).toEqual([]);
    texts.close();
  });
});
