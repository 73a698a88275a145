import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleClient, COMPILE_WHOLE_HINT } from '../../../../src/node/output/bundle';
import { projectRoot } from '../../../helpers/tree';

/** A small `src/` with the three browser entry points the app bundle starts from. */
async function sourceTree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'docs-bundle-'));
  const all = {
    'client/entry.tsx': 'document.title = "docs";\n',
    'client/search/worker.ts': 'self.onmessage = () => undefined;\n',
    'client/app/theme-boot.ts': 'document.documentElement.dataset.theme = "light";\n',
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(root, 'src', name)), { recursive: true });
    await writeFile(path.join(root, 'src', name), text);
  }
  return path.join(root, 'src');
}

describe('the browser bundle', () => {
  it('bundles browser code that stays on its side', async () => {
    const srcDir = await sourceTree({
      'client/entry.tsx': 'import { greeting } from "../shared/greeting";\ndocument.title = greeting;\n',
      'shared/greeting.ts': 'export const greeting = "hello";\n',
    });
    const assets = await bundleClient(srcDir);
    const entry = new TextDecoder().decode(assets.files.get(assets.entry));
    expect(entry).toContain('hello');
  });

  it("has the app's entry and every chunk compiled whole as it downloads, not function by function", async () => {
    const srcDir = await sourceTree({
      'client/entry.tsx': 'void import("./later").then((m) => m.run());\ndocument.title = "docs";\n',
      'client/later.ts': 'export function run() {\n  document.title = "later";\n}\n',
    });
    const assets = await bundleClient(srcDir);
    const app = [...assets.files].filter(([name]) => /^(entry|chunk)\..*\.js$/.test(name));
    expect(app.map(([name]) => name.split('.')[0]).sort()).toEqual(['chunk', 'entry']);
    for (const [name, contents] of app) {
      expect(new TextDecoder().decode(contents).split('\n')[0], name).toBe(COMPILE_WHOLE_HINT);
    }
  });

  it("starts the app with neither the router nor React Query: both come with navigation's chunk", async () => {
    const assets = await bundleClient(path.join(projectRoot, 'src'));
    const text = (name: string) => new TextDecoder().decode(assets.files.get(name));
    // Property names minifying keeps: TanStack Router's route table, React Query's client.
    const library = /\broutesById\b|\bgetQueryCache\b/;
    const start = [assets.entry, ...assets.preload];
    expect(start.filter((name) => library.test(text(name)))).toEqual([]);
    const later = [...assets.files.keys()].filter((name) => name.startsWith('chunk.') && !start.includes(name));
    expect(later.filter((name) => library.test(text(name)))).toHaveLength(1);
  });

  it('fails, naming both files, when browser code imports build-only code', async () => {
    const srcDir = await sourceTree({
      'client/entry.tsx': 'import { secret } from "../node/secret";\ndocument.title = secret;\n',
      'node/secret.ts': 'export const secret = "from the build";\n',
    });
    await expect(bundleClient(srcDir)).rejects.toThrow(
      /browser code imports build-only code "\.\.\/node\/secret" \(from .*src\/client\/entry\.tsx\)/,
    );
  });

  it('fails, naming the module, when browser code imports a Node built-in', async () => {
    const srcDir = await sourceTree({
      'client/search/worker.ts': 'import { readFileSync } from "node:fs";\nself.onmessage = () => readFileSync("x");\n',
      'client/app/theme-boot.ts': 'import os from "os";\ndocument.title = os.hostname();\n',
    });
    const failure = bundleClient(srcDir);
    await expect(failure).rejects.toThrow(
      /browser code imports the Node built-in "node:fs" \(from .*src\/client\/search\/worker\.ts\)/,
    );
    await expect(failure).rejects.toThrow(/browser code imports the Node built-in "os" \(from .*theme-boot\.ts\)/);
  });
});
