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
