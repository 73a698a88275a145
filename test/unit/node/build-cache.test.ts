import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadPrerender } from '../../../src/node/build';
import { CodeHighlighter } from '../../../src/node/markdown/highlight';
import { buildTree, makeTree, messages, projectRoot } from '../../helpers/tree';

const run = promisify(execFile);

/** Files of a folder, or none when it does not exist. */
const filesIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);

describe('the highlight cache', () => {
  it('is dropped when it was written by another shiki version', async () => {
    const cacheFile = path.join(await mkdtemp(path.join(tmpdir(), 'docs-hl-')), 'highlight.json');
    const first = await CodeHighlighter.create(cacheFile);
    const fresh = first.highlight('const a = 1;', 'javascript', new Set());
    await first.save();

    // What the cache of the version before an upgrade looks like: same keys, other HTML.
    const saved = JSON.parse(readFileSync(cacheFile, 'utf8')) as { identity: string; entries: Record<string, string> };
    expect(saved.identity).toMatch(/^shiki \d+\.\d+\.\d+ /);
    const stale = Object.fromEntries(Object.keys(saved.entries).map((key) => [key, 'STALE']));
    await writeFile(cacheFile, JSON.stringify({ identity: 'shiki 0.0.1 old-light old-dark', entries: stale }));
    const upgraded = await CodeHighlighter.create(cacheFile);
    expect(upgraded.highlight('const a = 1;', 'javascript', new Set())).toBe(fresh);

    // The same version reads its own cache back.
    await writeFile(cacheFile, JSON.stringify({ identity: saved.identity, entries: stale }));
    const same = await CodeHighlighter.create(cacheFile);
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
      expect(readdirSync(path.join(root, '.cache'))).toEqual(['highlight.json']);
      const cache = JSON.parse(readFileSync(path.join(root, '.cache/highlight.json'), 'utf8')) as {
        entries: Record<string, string>;
      };
      return Object.keys(cache.entries).length;
    });
    expect(entries).toEqual([1, 2]);
  });
});

describe('the prerender bundle', () => {
  it('is removed when importing it fails', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'docs-prerender-'));
    const srcDir = path.join(root, 'src');
    await mkdir(path.join(srcDir, 'client'), { recursive: true });
    await writeFile(
      path.join(srcDir, 'client/prerender.tsx'),
      "throw new Error('prerender failed to load');\nexport const renderRoute = () => '';\n",
    );
    await expect(loadPrerender(srcDir)).rejects.toThrow('prerender failed to load');
    expect(filesIn(path.join(root, 'node_modules/.cache/docs-prerender'))).toEqual([]);
  });

  it('resolves its packages when the cache folder is outside the project (plain Node, as npm run build)', async () => {
    // Vitest resolves the bundle's imports itself; plain Node resolves them from the bundle's folder.
    const root = await makeTree({ 'README.md': '# Home\n\nText.\n' });
    const options = {
      contentDir: path.join(root, 'content'),
      manifestDir: path.join(root, 'manifest'),
      outDir: path.join(root, 'dist'),
      strict: true,
      cacheDir: path.join(root, '.cache'),
      srcDir: path.join(projectRoot, 'src'),
    };
    const script = `
      import { build } from ${JSON.stringify(path.join(projectRoot, 'src/node/build.ts'))};
      const result = await build(${JSON.stringify(options)});
      console.log(JSON.stringify({ ok: result.ok, diagnostics: result.diagnostics }));
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: projectRoot,
    });
    expect(JSON.parse(stdout)).toEqual({ ok: true, diagnostics: [] });
    expect(readdirSync(options.cacheDir)).toEqual(['highlight.json']);
    expect(existsSync(path.join(options.outDir, 'index.html'))).toBe(true);
  });
});
