import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePages } from '../../../../src/node/analyze/analyze-pages';
import { TextStore } from '../../../../src/node/analyze/text-store';
import { DiagnosticList } from '../../../../src/node/diagnostics';
import { scanContent } from '../../../../src/node/scan/scan';
import { siteConfigSchema } from '../../../../src/node/scan/site-config';
import { assembleSite } from '../../../../src/node/site/assemble';
import { PLAIN_BUILD_CODE } from '../../../helpers/render-page';
import { makeTree } from '../../../helpers/tree';
import { heldSearch } from '../../../../src/node/analyze/stored-search';

/** The sidebar the site stage makes for `tree` when `_site.yaml` configures none. */
async function sidebarOf(tree: Record<string, string>) {
  const root = await makeTree(tree);
  const diagnostics = new DiagnosticList();
  const files = await scanContent(path.join(root, 'content'), diagnostics);
  const texts = new TextStore(path.join(root, 'cache'));
  const made = await analyzePages(files, {
    settings: { base: '/docs/', constants: {}, strict: true },
    highlighter: PLAIN_BUILD_CODE,
    texts,
    search: heldSearch,
    diagnostics,
  });
  const pages = made.map(({ page }) => page);
  const site = assembleSite(pages, siteConfigSchema.parse({ title: 'Docs' }), '', true, diagnostics);
  texts.close();
  expect(diagnostics.items).toEqual([]);
  return site.sidebar.map((group) => [group.text, group.items.map((item) => item.link)]);
}

describe('the sidebar of a site that configures none', () => {
  it('has a group of the top-level pages, then one per folder named by its index page, else by the folder', async () => {
    const sidebar = await sidebarOf({
      'README.md': '# Home\n',
      'about.md': '# About\n',
      'guide/README.md': '# The Guide\n',
      'guide/setup.md': '# Setup\n',
      'zeta/one.md': '# One\n',
      'alpha/README.md': '# Alpha Folder\n',
      'alpha/deep/two.md': '# Two\n',
    });
    expect(sidebar).toEqual([
      ['Docs', ['/', '/about/']],
      ['Alpha Folder', ['/alpha/', '/alpha/deep/two/']],
      ['The Guide', ['/guide/', '/guide/setup/']],
      ['zeta', ['/zeta/one/']],
    ]);
  });
});
