import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build, type Loader, type Plugin } from 'esbuild';
import type { RunnerInput, RunnerMessage, RunnerOutput } from './config-runner';

/**
 * Loads a VuePress or VitePress configuration the way those tools do: as JavaScript, run. A `.ts` or `.mjs`
 * config and the files it imports are bundled to one CommonJS module first (packages stay outside the
 * bundle and are required from the old site's folder, as the tool would). A package that is not installed
 * here (a theme, a plugin, the tool itself) does not stop the import: `require` hands back a stand-in,
 * and every option that ends up holding one is reported as unreadable, with the package it needed. The
 * config runs on a thread of its own with a time limit, so that a config that exits, hangs or throws is
 * reported with its path instead of ending or stalling the import.
 */

export type Tool = 'VuePress' | 'VitePress';

export interface FoundConfig {
  tool: Tool;
  file: string;
}

const CANDIDATES: readonly [Tool, string][] = [
  ['VuePress', '.vuepress/config.js'],
  ['VuePress', '.vuepress/config.ts'],
  ['VitePress', '.vitepress/config.js'],
  ['VitePress', '.vitepress/config.mjs'],
  ['VitePress', '.vitepress/config.ts'],
  ['VitePress', '.vitepress/config.mts'],
];

/** The configuration file of an old docs folder, or undefined when it has none. */
export function findConfig(sourceDir: string): FoundConfig | undefined {
  for (const [tool, name] of CANDIDATES) {
    const file = path.join(sourceDir, name);
    if (existsSync(file)) return { tool, file };
  }
  return undefined;
}

export type LoadedConfig = RunnerOutput;

/** How long a config may run before the import gives up on it: a real one takes well under a second. */
export const CONFIG_TIME_LIMIT_MS = 30_000;

/** The config did not give a configuration: it threw, exited, or ran out of time. */
export class ConfigRunError extends Error {}

/**
 * A config's own files are read for what their syntax says (`module.exports` is CommonJS, `export` an
 * ES module), as VuePress (which `require`s its config) and VitePress did, not by the `"type"` of a
 * package.json above them, which may belong to another project. esbuild decides by that field for files
 * it finds on disk, so they are loaded from a namespace of their own; packages stay outside the bundle.
 */
const syntaxDecidesFormat: Plugin = {
  name: 'syntax-decides-format',
  setup(build) {
    build.onResolve({ filter: /^[./]/ }, (args) => {
      const base = path.resolve(args.resolveDir, args.path);
      const file = ['', '.js', '.ts', '.mjs', '.mts', '.cjs', '.json', '/index.js', '/index.ts']
        .map((ending) => base + ending)
        .find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
      return file ? { path: file, namespace: 'config-file' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'config-file' }, async (args) => {
      const loader = (/\.(json|ts|mts)$/.exec(args.path)?.[1]?.replace('mts', 'ts') ?? 'js') as Loader;
      const text = await readFile(args.path, 'utf8');
      return {
        contents: loader === 'json' ? text : withOwnLocation(text, args.path),
        loader,
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/**
 * A config file as it would run on its own: in one bundle, `__dirname` would be the entry's folder for
 * every file, and `import.meta.url` empty, so a sidebar file that reads the pages' folder beside it
 * (`readdirSync(path.resolve(__dirname, '../../guide'))`) would read another one. Each file is given its
 * own; the declarations go on the first line, so the lines of an error stay the file's own.
 */
function withOwnLocation(text: string, file: string): string {
  const url = pathToFileURL(file).href;
  const own = { url, dirname: path.dirname(file), filename: file } as const;
  const located = text.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key: keyof typeof own) =>
    JSON.stringify(own[key]),
  );
  const uses = /\b__(dirname|filename)\b/.test(located);
  const declares = /\b(const|let|var|function|class)\s+__(dirname|filename)\b/.test(located);
  if (!uses || declares) return located;
  return `var __dirname = ${JSON.stringify(own.dirname)}, __filename = ${JSON.stringify(file)}; ${located}`;
}

/** One script for a thread of this process: its packages are loaded from node_modules, not bundled. */
const NODE_SCRIPT = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  packages: 'external',
  write: false,
  logLevel: 'silent',
  target: 'node20',
} as const;

/**
 * Runs the configuration file on a thread of its own (config-runner.ts) and hands back its data. Rejects
 * with a ConfigRunError saying what went wrong when the file does not compile, throws, ends the process,
 * never settles or runs longer than `timeLimitMs`; the thread is always ended.
 */
export async function loadConfig(file: string, timeLimitMs = CONFIG_TIME_LIMIT_MS): Promise<LoadedConfig> {
  const bundled = await build({ ...NODE_SCRIPT, entryPoints: [file], plugins: [syntaxDecidesFormat] }).catch(
    (error: unknown) => {
      throw new ConfigRunError((error as Error).message);
    },
  );
  const code = bundled.outputFiles[0]?.text ?? '';
  const worker = new Worker(await runnerScript(), {
    eval: true,
    execArgv: [],
    workerData: { code, file } satisfies RunnerInput,
  });
  try {
    return await new Promise<LoadedConfig>((resolve, reject) => {
      let exitCode: string | undefined;
      const fail = (message: string) => reject(new ConfigRunError(message));
      const timer = setTimeout(
        () => fail(`it was still running after ${timeLimitMs / 1000} s, and was stopped`),
        timeLimitMs,
      );
      worker.on('message', (message: RunnerMessage) => {
        if (message.kind === 'config') resolve(message.output);
        else if (message.kind === 'error') fail(message.message);
        else exitCode = message.code;
      });
      worker.on('error', (error) => fail(error.message));
      worker.on('exit', (code) => {
        clearTimeout(timer);
        fail(
          exitCode !== undefined
            ? `it called process.exit(${exitCode}) before giving its configuration`
            : code === 0
              ? "it ended without giving its configuration: what it exports (a promise, or a function's) never settled"
              : `it stopped with exit code ${code} before giving its configuration`,
        );
      });
    });
  } finally {
    await worker.terminate();
  }
}

/**
 * The runner as one CommonJS script: it is TypeScript in this folder, and the thread runs plain
 * JavaScript whatever loader (tsx, vitest) the import itself runs under.
 */
async function runnerScript(): Promise<string> {
  const runner = await build({
    ...NODE_SCRIPT,
    entryPoints: [fileURLToPath(new URL('./config-runner.ts', import.meta.url))],
  });
  return runner.outputFiles[0]?.text ?? '';
}
