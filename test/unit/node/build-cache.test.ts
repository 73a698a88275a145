import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compiledFile } from '../../../src/node/compiled';
import { HighlightCache } from '../../../src/node/render/highlight/cache';
import { CodeHighlighter } from '../../../src/node/render/highlight/code-highlighter';
import { appBundles } from '../../../src/node/output/app-bundles';
import { buildTree, copyOfSrc, makeTree, messages, projectRoot, treeBuildOptions } from '../../helpers/tree';

const run = promisify(execFile);

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

describe('the build bundles', () => {
  it('fail the prerender with the error the renderer throws as it loads', async () => {
    const root = await copyOfSrc({
      'client/prerender.tsx': "throw new Error('prerender failed to load');\nexport const renderRoute = () => '';\n",
    });
    await expect(appBundles(path.join(root, 'src'))).rejects.toThrow('prerender failed to load');
  });

  it('build in plain Node, as npm run build runs them: the compiled command, its highlight threads and the prerender', async () => {
    // Enough pages for the build to highlight on threads.
    const pages = Object.fromEntries(
      Array.from({ length: 48 }, (_, i) => [`p${i}.md`, `# Page ${i}\n\n\`\`\`js\nconst page = ${i};\n\`\`\`\n`]),
    );
    const root = await makeTree({ 'README.md': '# Home\n\nText.\n', ...pages });
    const options = treeBuildOptions(root);
    const args = ['--content', options.contentDir, '--out', options.outDir, '--manifest', options.manifestDir];
    const { stdout } = await run(
      process.execPath,
      [compiledFile(projectRoot, 'build'), ...args, '--cache', options.cacheDir],
      {
        cwd: projectRoot,
      },
    );
    expect(stdout).toMatch(/^built 49 pages, 0 warnings, 0 errors in /m);
    expect(readdirSync(options.cacheDir).sort()).toEqual(['highlight.json', 'output', 'pages']);
    expect(existsSync(path.join(options.outDir, 'index.html'))).toBe(true);
    const fragment = readdirSync(path.join(options.outDir, 'assets/js')).find((f) => f.startsWith('page.p47.'));
    expect(readFileSync(path.join(options.outDir, 'assets/js', fragment ?? 'missing'), 'utf8')).toMatch(
      /<span class="c-[0-9a-f]+-[0-9a-f]+">const<\/span>/,
    );
  });
});
