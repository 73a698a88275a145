import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readStartAssets } from '../../../../src/node/output/document';
import type { StartAssets } from '../../../../src/shared/start-assets';
import type { DeploymentPointer } from '../../../../src/shared/types';
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

/** The chunks a module imports with `import("./x.js")`. */
function lazyImportsOf(js: string): string[] {
  return [...js.matchAll(/\bimport\("\.\/([^"]+\.js)"\)/g)].map((m) => m[1] ?? '');
}

/** The search dialog's lazy import, beside its chunk name in the bundled code. */
const SEARCH_DIALOG_IMPORT = /"search-dialog"[^;]{0,80}?\bimport\("\.\/([^"]+\.js)"\)/g;

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

/** The start assets a document lists for its boot script. */
function startAssets(html: string): StartAssets {
  const assets = readStartAssets(html);
  if (!assets) throw new Error('the document lists no start assets');
  return assets;
}

describe('what a page loads', () => {
  let dist = '';
  beforeAll(async () => {
    const root = await makeTree(TREE);
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    dist = path.join(root, 'dist');
  });

  it('before its first paint: the stylesheet and the boot script, nothing of the app', () => {
    for (const file of ['index.html', 'guide/index.html', '404.html']) {
      const html = readFileSync(path.join(dist, file), 'utf8');
      const head = html.slice(0, html.indexOf('</head>'));
      expect(
        [...head.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]),
        file,
      ).toEqual([expect.stringMatching(/^\/docs\/assets\/js\/theme\.[A-Z0-9]+\.js$/)]);
      expect(head, file).toMatch(/<link rel="stylesheet" href="\/docs\/assets\/css\/app\.[0-9a-f]+\.css">/);
      expect(head, file).not.toMatch(/rel="(module)?preload"|type="module"/);
    }
  });

  it('once painted: the entry, each chunk its start evaluates, none of the lazy ones, and the pointer', () => {
    const jsDir = path.join(dist, 'assets/js');
    const read = (file: string) => readFileSync(path.join(jsDir, file), 'utf8');
    for (const file of ['index.html', 'guide/index.html', '404.html']) {
      const html = readFileSync(path.join(dist, file), 'utf8');
      const { entry, modules, pointer, base } = startAssets(html);
      expect(entry, file).toMatch(/^\/docs\/assets\/js\/entry\.[A-Z0-9]+\.js$/);
      const listed = new Set(modules.map((href) => path.basename(href)));
      const entryFile = path.basename(entry);
      // The entry's own imports, and the steps it imports one after another (the app, then React's DOM
      // renderer), each with its imports: preloaded together, so no step waits for a request of its own.
      for (const chunk of closure(jsDir, entryFile)) expect(listed, `${file}: ${chunk}`).toContain(chunk);
      const steps = lazyImportsOf(read(entryFile));
      expect(steps.length, file).toBeGreaterThan(0);
      for (const step of steps) expect(listed, `${file}: step ${step}`).toContain(step);
      for (const chunk of listed) {
        for (const imported of staticImportsOf(read(chunk))) expect(listed, `${file}: ${imported}`).toContain(imported);
      }
      // What only some readers use waits until they reach for it: the search dialog.
      const dialog = [...listed].flatMap((chunk) => [...read(chunk).matchAll(SEARCH_DIALOG_IMPORT)].map((m) => m[1]));
      expect(dialog, file).toHaveLength(1);
      expect(listed, file).not.toContain(dialog[0]);
      for (const href of [entry, ...modules, pointer]) {
        expect(existsSync(path.join(dist, href.replace(/^\/docs\//, ''))), href).toBe(true);
      }
      expect(pointer, file).toBe('/docs/version.json');
      expect(base, file).toBe('/docs/');
    }
    // The page's own record is preloaded once the pointer names the deployment; the not-found page has none.
    const routeOf = (file: string) => startAssets(readFileSync(path.join(dist, file), 'utf8')).route;
    expect(['index.html', 'guide/index.html', '404.html'].map(routeOf)).toEqual(['/', '/guide/', undefined]);
  });

  it('names no deployment: a document is the same whatever else in the site changed', () => {
    const pointer = JSON.parse(readFileSync(path.join(dist, 'version.json'), 'utf8')) as DeploymentPointer;
    for (const file of ['index.html', 'guide/index.html', '404.html']) {
      const html = readFileSync(path.join(dist, file), 'utf8');
      expect(html, file).not.toContain(pointer.hash);
      expect(html, file).not.toContain('docs-manifest');
    }
  });
});
