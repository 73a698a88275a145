import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyRealTree } from '../../../bench/real-tree';
import { buildTree, makeTree, messages } from '../../helpers/tree';

/**
 * A small imported docs tree in the shape of the VuePress docs: a guide whose pages link each other (one
 * page and one section linked from several), absolute links, an image, and a broken link of its own.
 */
const IMPORTED = {
  '_site.yaml': 'title: Small docs\n',
  'README.md': '# Small docs\n\nStart with the [guide](./guide/README.md).\n',
  'guide/README.md': [
    '# Guide',
    '',
    'Read [deploying](./deploy.md), the [config](./config.md#base-url) and [assets](./assets.md).',
    'The [old page](./removed-long-ago.md) went away years ago.',
    '',
  ].join('\n'),
  'guide/deploy.md': '# Deploy\n\nSet the [base URL](./config.md#base-url) and see [assets](./assets.md).\n',
  'guide/assets.md':
    '# Assets\n\n![Logo](./logo.png)\n\nThen [deploy](./deploy.md), or go [back](/guide/).\n\n## Public files\n\nText.\n',
  'guide/config.md':
    '# Config\n\n## Base URL\n\nThe base. See [deploy](./deploy.md) and [assets](/guide/assets/).\n\n## Title\n\nText.\n',
  'guide/faq.md': '# FAQ\n\nAsk [config](./config.md#base-url), then [deploy](/guide/deploy/).\n',
  'guide/logo.png': new Uint8Array([137, 80, 78, 71]),
};

describe('the real bench tree, copied to a size', () => {
  it('keeps its own broken links and adds, in each copy, the real kinds beside the typo kind', async () => {
    const root = await makeTree({});
    const from = (await makeTree(IMPORTED)).concat('/content');
    const dir = path.join(root, 'content');
    const copy = await copyRealTree(from, dir, 20, 'guide/faq.md');

    // 6 pages, then copies of 5 (one page of each copy is removed) until 20 pages: 3 copies.
    expect(copy).toMatchObject({ pages: 21, copies: 3, removedPages: 3, renamedPages: 3, removedSections: 3 });
    expect(existsSync(path.join(dir, 'copy3/guide/logo.png'))).toBe(true);
    expect(existsSync(path.join(dir, 'copy4'))).toBe(false);

    const built = await buildTree(root, { strict: false });
    expect(built.ok).toBe(true);
    expect(built.pages).toBe(21);
    const copy1 = messages(built).filter((m) => m.startsWith('copy1/'));
    // Its own: the page removed long ago, in the original and in the copies (but copy 2, which removes
    // the page that links it).
    expect(
      messages(built)
        .filter((m) => m.includes('removed-long-ago'))
        .map((m) => m.split('/')[0]),
    ).toEqual(['copy1', 'copy3', 'guide']);
    // A page removed (the most linked one, deploy.md) and one renamed (assets.md → assets-reference.md):
    // the links to their old names break.
    expect(existsSync(path.join(dir, 'copy1/guide/deploy.md'))).toBe(false);
    expect(existsSync(path.join(dir, 'copy1/guide/assets-reference.md'))).toBe(true);
    expect(copy1.filter((m) => /broken link "\.\/deploy\.md"/.test(m)).length).toBeGreaterThanOrEqual(2);
    expect(copy1.filter((m) => /broken link "\.\/assets\.md"/.test(m)).length).toBeGreaterThanOrEqual(1);
    // A section removed: its heading is bold text, and the anchors to it break.
    expect(await readFile(path.join(dir, 'copy1/guide/config.md'), 'utf8')).toContain('**Base URL**');
    expect(copy1.filter((m) => /broken anchor "\.\/config\.md#base-url"/.test(m)).length).toBeGreaterThanOrEqual(2);
    // The typo kind: every third absolute link of a copy.
    expect(copy1.filter((m) => /broken link "\/xguide\//.test(m)).length).toBeGreaterThanOrEqual(1);
    // The original is left as it was: only its own broken link.
    expect(messages(built).filter((m) => !m.startsWith('copy') && /broken/.test(m))).toHaveLength(1);
  }, 60_000);
});
