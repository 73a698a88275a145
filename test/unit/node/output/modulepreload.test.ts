import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

const TREE = {
  '_site.yaml': 'title: Preload Docs\nsidebar:\n  - text: Guide\n    items: [/, /guide/]\n',
  'README.md': '# Home\n\nWelcome.\n',
  'guide/README.md': '# Guide\n\nRead on.\n',
};

/** The chunks a module imports statically (`import … from"./x.js"` and bare `import"./x.js"`), not `import()`. */
function staticImportsOf(js: string): string[] {
  return [...js.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1] ?? '');
}

/** The entry's static imports and theirs, read from the bundled files themselves (no metafile involved). */
function closure(jsDir: string, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    for (const chunk of staticImportsOf(readFileSync(path.join(jsDir, file), 'utf8'))) {
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      visit(chunk);
    }
  };
  visit(entry);
  return seen;
}

function attributes(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((m) => m[1] ?? '');
}

describe('modulepreload', () => {
  let dist = '';
  beforeAll(async () => {
    const root = await makeTree(TREE);
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    dist = path.join(root, 'dist');
  });

  it('every page preloads each chunk the entry imports statically, and nothing else', () => {
    for (const file of ['index.html', 'guide/index.html', '404.html']) {
      const html = readFileSync(path.join(dist, file), 'utf8');
      const [entrySrc] = attributes(html, /<script type="module" src="([^"]+)"/g);
      expect(entrySrc, file).toMatch(/^\/docs\/assets\/js\/entry\.[A-Z0-9]+\.js$/);
      const jsDir = path.join(dist, 'assets/js');
      const expected = closure(jsDir, path.basename(entrySrc ?? ''));
      // The app is split: React and the router sit in a chunk the search dialog shares with the entry.
      expect(expected.size, file).toBeGreaterThan(0);
      const preloaded = attributes(html, /<link rel="modulepreload" href="([^"]+)"/g);
      expect(new Set(preloaded.map((href) => path.basename(href))), file).toEqual(expected);
      for (const href of preloaded) {
        expect(href).toMatch(/^\/docs\/assets\/js\/chunk\.[A-Z0-9]+\.js$/);
        expect(existsSync(path.join(dist, href.replace(/^\/docs\//, ''))), href).toBe(true);
      }
      // Preloads come before the entry script, so the chunks are fetched alongside it, not after it.
      expect(html.indexOf('rel="modulepreload"'), file).toBeLessThan(html.indexOf('<script type="module"'));
    }
  });
});
