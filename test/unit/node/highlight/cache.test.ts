import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HighlightCache } from '../../../../src/node/highlight/cache';
import { CodeHighlighter } from '../../../../src/node/highlight/code-highlighter';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

describe('the highlight cache', () => {
  it('is dropped when it was written by another shiki version', async () => {
    const cacheFile = path.join(await mkdtemp(path.join(tmpdir(), 'docs-hl-')), 'highlight.json');
    const firstCache = await HighlightCache.load(cacheFile);
    const fresh = (await CodeHighlighter.create(firstCache)).highlight('const a = 1;', 'javascript', new Set());
    await firstCache.save();

    // What the cache of the version before an upgrade looks like: same keys, other HTML.
    const saved = JSON.parse(readFileSync(cacheFile, 'utf8')) as { identity: string; entries: Record<string, string> };
    expect(saved.identity).toMatch(/^shiki \d+\.\d+\.\d+ /);
    const stale = Object.fromEntries(Object.keys(saved.entries).map((key) => [key, 'STALE']));
    await writeFile(cacheFile, JSON.stringify({ identity: 'shiki 0.0.1 old-light old-dark', entries: stale }));
    const upgraded = await CodeHighlighter.create(await HighlightCache.load(cacheFile));
    expect(upgraded.highlight('const a = 1;', 'javascript', new Set())).toBe(fresh);

    // The same version reads its own cache back.
    await writeFile(cacheFile, JSON.stringify({ identity: saved.identity, entries: stale }));
    const same = await CodeHighlighter.create(await HighlightCache.load(cacheFile));
    expect(same.highlight('const a = 1;', 'javascript', new Set())).toBe('STALE');
  });

  it('is one file per cache folder, so builds of different trees side by side never share one', async () => {
    const trees = await Promise.all([
      makeTree({ 'README.md': '# A\n\n```js\nconst a = 1;\n```\n' }),
      makeTree({ 'README.md': '# B\n\n```js\nconst b = 1;\n```\n\n```sh\necho b\n```\n' }),
    ]);
    const results = await Promise.all(trees.map((root) => buildTree(root)));
    expect(results.map(messages)).toEqual([[], []]);
    const entries = trees.map((root) => {
      expect(readdirSync(path.join(root, '.cache')).sort()).toEqual(['highlight.json', 'output', 'pages']);
      const cache = JSON.parse(readFileSync(path.join(root, '.cache/highlight.json'), 'utf8')) as {
        entries: Record<string, string>;
      };
      return Object.keys(cache.entries).length;
    });
    expect(entries).toEqual([1, 2]);
  });
});
