import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile, compiledFile, projectRootOf } from '../../../src/node/compiled';
import { makeTree, projectRoot, treeBuildOptions } from '../../helpers/tree';

const run = promisify(execFile);

describe('the compiled build', () => {
  it('finds the same project from a source file and from its compiled file', () => {
    expect(projectRootOf(pathToFileURL(`${projectRoot}/build.ts`).href)).toBe(projectRoot);
    expect(projectRootOf(pathToFileURL(`${projectRoot}/scripts/dev.ts`).href)).toBe(projectRoot);
    expect(projectRootOf(pathToFileURL(compiledFile(projectRoot, 'build')).href)).toBe(projectRoot);
  });

  it('is not compiled again when no source changed since the test set-up compiled it', async () => {
    for (const entry of ['build', 'dev', 'build-worker', 'bench-build-once'] as const) {
      expect(existsSync(compiledFile(projectRoot, entry))).toBe(true);
    }
    expect(await compile(projectRoot)).toBe(false);
  });
});

/**
 * The packages a compiled file loads, with the compiled files it imports (statically, or at `import(…)`):
 * those it imports from node_modules, and those compiled into it (esbuild heads each module it holds
 * with a comment naming its file).
 */
function packagesLoaded(file: string, dynamic: boolean, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const imports = [...text.matchAll(/(?:^import [^;]*? from |^import |\bimport\()"([^"]+)"/gm)];
  for (const [statement, name] of imports) {
    if (!dynamic && statement.includes('import(')) continue;
    if (name!.startsWith('./')) {
      for (const found of packagesLoaded(path.join(path.dirname(file), name!), dynamic, seen)) packages.add(found);
    } else packages.add(name!);
  }
  for (const [, name] of text.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) packages.add(name!);
  return packages;
}

describe('the compiled worker script', () => {
  const worker = compiledFile(projectRoot, 'build-worker');

  it('loads the markdown pipeline only on a page thread: a prerender thread renders with none of it', () => {
    const text = readFileSync(worker, 'utf8');
    const [, prerender] = /} else {[\s\S]*?import\("(\.\/[^"]+)"\)/.exec(text) ?? [];
    expect(prerender).toBeDefined();
    const prerenderPackages = packagesLoaded(path.join(path.dirname(worker), prerender!), true);
    const pagePackages = packagesLoaded(worker, true);
    for (const pipeline of ['marked', 'shiki', 'katex', 'sanitize-html']) {
      expect(pagePackages).toContain(pipeline);
      expect(prerenderPackages).not.toContain(pipeline);
    }
    // The diagram renderer is loaded by the first page with a diagram, not when a thread starts.
    expect(packagesLoaded(worker, false)).not.toContain('beautiful-mermaid');
  });

  it('leaves no chunk of an earlier compile beside the files', () => {
    const dir = path.dirname(worker);
    const imported = new Set<string>();
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.mjs'))) {
      for (const [, name] of readFileSync(path.join(dir, file), 'utf8').matchAll(/"\.\/(chunk-[^"]+)"/g)) {
        imported.add(name!);
      }
    }
    expect(readdirSync(dir).filter((name) => name.startsWith('chunk-') && !imported.has(name))).toEqual([]);
  });
});

describe('the compiled command', () => {
  it('builds in plain Node, as npm run build runs it: its page threads and the prerender too', async () => {
    // Enough pages, their code not highlighted before, for the build to make them on threads.
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
