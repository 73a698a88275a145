import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TextStore, type PlacedText } from '../../../../src/node/analyze/text-store';
import { contentHash } from '../../../../src/node/content-hash';
import type { BuildHighlighting } from '../../../../src/node/analyze/markdown/code-blocks';
import { pageRecords } from '../../../../src/node/site/page-records';
import { siteConfigSchema } from '../../../../src/node/scan/site-config';
import { assembleSite, type AssembledSite } from '../../../../src/node/site/assemble';
import type { CompletePage } from '../../../../src/node/analyze/page-record';
import { pagePass } from '../../../helpers/page-pass';
import { makeTree } from '../../../helpers/tree';

/** Every block "highlighted" as this HTML, so the tests see what the stage does around the code. */
const highlighter: BuildHighlighting = {
  cold: false,
  knows: () => true,
  prepare: async () => undefined,
  block: () => ({ html: '<span>highlighted</span>', key: 'block' }),
  drawn: (_key, draw) => draw(),
  keep: () => undefined,
  forThreads: () => Promise.reject(new Error('no page threads in these tests')),
};

/** A text store that counts the characters put in it. */
class CountedStore extends TextStore {
  characters = 0;

  override put(text: string | Buffer): PlacedText {
    this.characters += text.length;
    return super.put(text);
  }
}

async function rendered(tree: Record<string, string>) {
  const root = await makeTree(tree);
  const texts = new CountedStore(path.join(root, 'cache'));
  const { diagnostics, made } = await pagePass(root, highlighter, { texts });
  const drafts = made.map(({ page }) => page);
  const config = siteConfigSchema.parse({ title: 'Docs' });
  const assembled = assembleSite(drafts, config, '', true, diagnostics);
  const analyzed = texts.characters;
  return { site: pageRecords(assembled), made, drafts, diagnostics, texts, analyzed };
}

describe('the render stage', () => {
  it('makes each page once, in the site’s order, with its fragment, that fragment’s hash and its key', async () => {
    const {
      site,
      made: forCache,
      drafts,
      texts,
    } = await rendered({
      'README.md': '# Home\n\nWelcome.\n',
      'a.md': '# Alpha\n\nFirst.\n\n```js\nconst a = 1;\n```\n',
      'b.md': '# Beta\n\nSecond.\n',
    });
    expect(site.pages.map((page) => [page.route, page.key])).toEqual([
      ['/', 'index'],
      ['/a/', 'a'],
      ['/b/', 'b'],
    ]);
    for (const page of site.pages) expect(page.hash).toBe(contentHash(page.html.read()));
    const alpha = site.pages.find((page) => page.route === '/a/');
    expect(alpha?.html.read()).toContain('<code><span>highlighted</span></code>');
    expect(alpha?.markdown.read()).toBe('# Alpha\n\nFirst.\n\n```js\nconst a = 1;\n```\n');
    // A fragment without legacy links is the page pass's text, not stored again.
    const madeOf = (route: string) => drafts.find((page) => page.route === route)?.html;
    expect(site.pages.find((page) => page.route === '/')?.html).toBe(madeOf('/'));
    expect(alpha?.html).toBe(madeOf('/a/'));
    expect(forCache.map(({ page, code }) => [page.route, code])).toEqual([
      ['/', []],
      ['/a/', ['block']],
      ['/b/', []],
    ]);
    texts.close();
  });

  it('stores no text of its own: the page pass made each fragment with its code', async () => {
    const {
      site,
      made: forCache,
      texts,
      analyzed,
    } = await rendered({
      'README.md': '# Home\n\nWelcome.\n',
      'a.md': '# Alpha\n\n```js\nconst a = 1;\n```\n\nBetween.\n\n```js\nconst b = 2;\n```\n',
    });
    const alpha = site.pages.find((page) => page.route === '/a/');
    const html = alpha?.html.read() ?? '';
    expect(html.match(/<span>highlighted<\/span>/g)).toHaveLength(2);
    expect(alpha?.html.read()).toBe(html);
    expect(alpha?.hash).toBe(contentHash(html));
    expect(forCache.find(({ page }) => page.route === '/a/')?.page.html.read()).toBe(html);
    // Everything the store holds was put there by the analyze stage: the fragments, twins and search sections.
    expect(texts.characters).toBe(analyzed);
    texts.close();
  });

  it('points a link written for an older site’s heading id at the heading, and caches the link as written', async () => {
    const {
      site,
      made: forCache,
      diagnostics,
      texts,
    } = await rendered({
      'README.md': '# Home\n\nSee [the history](./b.md#event-execution-history).\n',
      'b.md': '# Beta\n\n## Event / Execution History\n\nText.\n',
    });
    expect(diagnostics.items).toEqual([]);
    const home = site.pages.find((page) => page.route === '/');
    expect(home?.html.read()).toContain('href="/docs/b/#event--execution-history"');
    expect(home?.html.read()).not.toContain('#event-execution-history"');
    const cached = forCache.find(({ page }) => page.route === '/')?.page;
    expect(cached?.html.read()).toContain('href="/docs/b/#event-execution-history"');
    texts.close();
  });

  it('names a fragment with legacy links by its stored hash and those links, without reading it', async () => {
    const root = await makeTree({
      'README.md': '# Home\n\nSee [the history](./b.md#event-execution-history).\n',
      'b.md': '# Beta\n\n## Event / Execution History\n\nText.\n',
    });
    const { diagnostics, texts, made } = await pagePass(root, highlighter);
    // Pages as the render cache gives them, whose fragments count their reads from here on.
    let reads = 0;
    const pages = made.map(({ page }) => {
      const stored = page.html;
      return { ...page, html: { read: () => (reads++, stored.read()) } };
    });
    const homeOf = (site: AssembledSite<CompletePage>) => pageRecords(site).pages.find((page) => page.route === '/');
    const config = siteConfigSchema.parse({ title: 'Docs' });
    const site = assembleSite(pages, config, '', true, diagnostics);
    expect(diagnostics.items).toEqual([]);

    const first = homeOf(site);
    expect(reads).toBe(0);
    const stored = made.find(({ page }) => page.route === '/')?.page;
    expect(first?.hash).not.toBe(stored?.hash);
    expect(first?.html.read()).toContain('href="/docs/b/#event--execution-history"');
    // The same fragment and links, the same name.
    expect(homeOf(assembleSite(pages, config, '', true, diagnostics))?.hash).toBe(first?.hash);

    // The heading the link leads to gets another id of its own: the fragment reads differently, and is named anew.
    const other = await makeTree({
      'README.md': '# Home\n\nSee [the history](./b.md#event-execution-history).\n',
      'b.md': '# Beta\n\n## Event - Execution History\n\nText.\n',
    });
    const again = await pagePass(other, highlighter);
    const moved = homeOf(
      assembleSite(
        again.made.map(({ page }) => page),
        config,
        '',
        true,
        again.diagnostics,
      ),
    );
    expect(moved?.html.read()).toContain('href="/docs/b/#event---execution-history"');
    expect(moved?.hash).not.toBe(first?.hash);
    again.texts.close();
    texts.close();
  });
});
