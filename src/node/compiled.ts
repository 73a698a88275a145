/**
 * The build's own TypeScript, compiled once to plain JavaScript that Node runs without a loader. A loader
 * (tsx, vitest) transforms every module a process imports: the page threads and the app's prerender
 * bundle would pay for that on every build, so the commands run compiled and the threads always do.
 * `npm run compile` (scripts/compile.ts, started by scripts/compile.mjs) writes these files; the commands'
 * npm scripts run it first, and it does nothing when no source changed since.
 */
import { writeAside } from './write-aside';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutputFile } from 'esbuild';

/** Where the compiled files go, inside the project: Node finds the packages they import from there. */
const COMPILED_DIR = 'node_modules/.cache/docs-node';
/** What was compiled from which files, to tell whether a source changed since. */
const INPUTS_FILE = 'inputs.json';

/** Each compiled file's name and its entry point in the project. */
const ENTRIES = {
  /** `npm run compile` itself, which scripts/compile.mjs runs in plain Node. */
  compile: 'scripts/compile.ts',
  /** `npm run build`. */
  build: 'build.ts',
  /** `npm run dev`. */
  dev: 'scripts/dev.ts',
  /** Every thread of the build: a page thread (analyze/analyze-threads.ts) or a prerender thread (output/prerender-threads.ts). */
  'build-worker': 'src/node/build-worker.ts',
  /** One measured build of `npm run bench`, compiled as `npm run build` is. */
  'bench-build-once': 'bench/build-once.ts',
} as const;

export type CompiledEntry = keyof typeof ENTRIES;

/** The compiled file of an entry point. */
export function compiledFile(projectRoot: string, entry: CompiledEntry): string {
  return path.join(projectRoot, COMPILED_DIR, `${entry}.mjs`);
}

/** The script every thread of the build runs (build-worker.ts), compiled. */
export function buildWorkerScript(): string {
  return compiledFile(projectRootOf(import.meta.url), 'build-worker');
}

/**
 * The project a module belongs to: the nearest folder above it with a package.json. The same answer from
 * the source (`build.ts`, `scripts/dev.ts`) and from its compiled file (inside node_modules/.cache).
 */
export function projectRootOf(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return dir;
}

/** Whether every compiled file is newer than each source it was made from (and than the installed packages). */
async function upToDate(projectRoot: string): Promise<boolean> {
  const outDir = path.join(projectRoot, COMPILED_DIR);
  try {
    const inputs = JSON.parse(await readFile(path.join(outDir, INPUTS_FILE), 'utf8')) as string[];
    const compiled = await Promise.all(
      Object.keys(ENTRIES).map((entry) => stat(compiledFile(projectRoot, entry as CompiledEntry))),
    );
    const compiledAt = Math.min(...compiled.map((file) => file.mtimeMs));
    const sources = await Promise.all(
      [...inputs, 'package-lock.json'].map((file) => stat(path.join(projectRoot, file))),
    );
    return sources.every((source) => source.mtimeMs < compiledAt);
  } catch {
    // A file missing (never compiled, or a source deleted) or unreadable: compile.
    return false;
  }
}

/**
 * Packages the compiled files import from node_modules rather than hold: esbuild (a native binary it runs
 * beside Node) and every development package (tests and benchmarks). Every other package is compiled in:
 * Node then reads, resolves and links a few files rather than hundreds, and never probes a CommonJS
 * package for its format and exports (the diagram renderer's layout engine is one file of 1.6 MB), which
 * every build and every thread paid on start.
 */
function externalPackages(projectRoot: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  return ['esbuild', ...Object.keys(manifest.devDependencies ?? {})].flatMap((name) => [name, `${name}/*`]);
}

/**
 * A CommonJS package compiled into an ES module still calls `require` for Node's own modules: each
 * compiled file gives it one, resolving from where the file is.
 */
const REQUIRE_FOR_PACKAGES =
  "import { createRequire as createRequireOfCompiled } from 'node:module'; const require = createRequireOfCompiled(import.meta.url);";

/**
 * Compiles the entry points, unless every compiled file is newer than its sources. Returns whether it
 * compiled. Rejects with esbuild's messages (file and line) when a source does not compile.
 */
export async function compile(projectRoot: string): Promise<boolean> {
  if (await upToDate(projectRoot)) return false;
  const outDir = path.join(projectRoot, COMPILED_DIR);
  // Imported here, not above: every thread of the build imports this module for `compiledFile`.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: projectRoot,
    entryPoints: Object.entries(ENTRIES).map(([out, entry]) => ({ in: entry, out })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: externalPackages(projectRoot),
    banner: { js: REQUIRE_FOR_PACKAGES },
    // Code an entry imports only when it needs it (a worker thread of one kind, build-worker.ts) goes into
    // chunks of its own, with the packages it imports: a thread of another kind never loads them.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.startsWith('node_modules/'));
  const written = (files: readonly OutputFile[]) => Promise.all(files.map((file) => writeAside(file.path, file.text)));
  // A process starting meanwhile loads the old file or the new, never half; a chunk is named by its
  // contents, so the chunks an entry imports are all in place before the entry is.
  const isChunk = (file: OutputFile) => path.basename(file.path).startsWith('chunk-');
  await written(result.outputFiles.filter(isChunk));
  await written(result.outputFiles.filter((file) => !isChunk(file)));
  await writeAside(path.join(outDir, INPUTS_FILE), JSON.stringify(inputs));
  // The chunks of an earlier compile: no entry written now imports them.
  const made = new Set(result.outputFiles.map((file) => path.basename(file.path)));
  const stale = (await readdir(outDir)).filter((name) => name.startsWith('chunk-') && !made.has(name));
  await Promise.all(stale.map((name) => rm(path.join(outDir, name), { force: true })));
  return true;
}
