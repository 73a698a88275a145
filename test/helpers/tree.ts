import { cp, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { build, type BuildOptions, type BuildResult } from '../../src/node/build';
import { formatDiagnostic } from '../../src/node/diagnostics';

// From the module's URL, not __dirname: the bench imports this under plain ESM, where there is none.
export const projectRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** Writes a content tree into a fresh temporary folder and returns its path. */
export async function makeTree(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'docs-test-'));
  for (const [name, contents] of Object.entries(files)) {
    const file = path.join(root, 'content', name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, contents);
  }
  return root;
}

/**
 * A copy of the project's `src/` in a fresh folder, with some files (paths relative to `src/`) replaced or
 * added: for builds whose own code misbehaves. Returns the copy's root (its `src/` is `<root>/src`). The
 * folder is inside the project's `node_modules/.cache`, so the copy's bundles find the project's packages;
 * it is removed when the test ends.
 */
export async function copyOfSrc(replaced: Record<string, string>): Promise<string> {
  const parent = path.join(projectRoot, 'node_modules/.cache');
  await mkdir(parent, { recursive: true });
  const root = await mkdtemp(path.join(parent, 'docs-test-src-'));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  await cp(path.join(projectRoot, 'src'), path.join(root, 'src'), { recursive: true });
  for (const [file, contents] of Object.entries(replaced)) await writeFile(path.join(root, 'src', file), contents);
  return root;
}

/** The options that build `<root>/content` into `<root>/manifest` and `<root>/dist`, strictly. */
export function treeBuildOptions(root: string) {
  return {
    contentDir: path.join(root, 'content'),
    manifestDir: path.join(root, 'manifest'),
    outDir: path.join(root, 'dist'),
    strict: true,
    cacheDir: path.join(root, '.cache'),
    srcDir: path.join(projectRoot, 'src'),
  } satisfies BuildOptions;
}

/** Builds `<root>/content` into `<root>/manifest` and `<root>/dist` with the real build. */
export function buildTree(root: string, options: Partial<BuildOptions> = {}): Promise<BuildResult> {
  return build({ ...treeBuildOptions(root), ...options });
}

export function messages(result: BuildResult): string[] {
  return result.diagnostics.map(formatDiagnostic);
}
