import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import { build, type Loader, type Plugin } from 'esbuild';

/**
 * Loads a VuePress or VitePress configuration the way those tools do: as JavaScript, run. A `.ts` or `.mjs`
 * config and the files it imports are bundled to one CommonJS module first (packages stay outside the
 * bundle and are required from the old site's folder, as the tool would). A package that is not installed
 * here (a theme, a plugin, the tool itself) does not stop the import: `require` hands back a stand-in,
 * and every option that ends up holding one is reported as unreadable, with the package it needed.
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

export interface LoadedConfig {
  config: Record<string, unknown>;
  /** Options that hold a stand-in for a missing package: `themeConfig.algolia` → `@docsearch/js`. */
  unreadable: { option: string; module: string }[];
}

const MISSING = Symbol('missing module');

/**
 * A stand-in for a module that is not installed: any property, call or `new` gives another stand-in, so
 * the config runs on. Called with an object or a function, it returns it: `defineConfig({...})` and
 * `defineConfig(ctx => ({...}))` are identity functions, and their argument is the configuration itself.
 */
function standIn(module: string): unknown {
  const target = function () {};
  return new Proxy(target, {
    has: (_target, key) => key === MISSING || key in _target,
    get(_target, key) {
      if (key === MISSING) return module;
      if (key === Symbol.toPrimitive) return () => '';
      if (key === 'then' || key === '__esModule') return undefined;
      return standIn(module);
    },
    apply(_target, _this, args: unknown[]) {
      const [first] = args;
      return first !== null && (typeof first === 'object' || typeof first === 'function') && !isStandIn(first)
        ? first
        : standIn(module);
    },
    construct: () => standIn(module) as object,
  });
}

function isStandIn(value: unknown): boolean {
  return (typeof value === 'function' || typeof value === 'object') && value !== null && MISSING in value;
}

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
    // Each file sees its own folder in __dirname, as under `require`: bundled into one module, every file
    // would otherwise see the folder of the config file alone (a sidebar built with readdirSync(__dirname)).
    build.onLoad({ filter: /.*/, namespace: 'config-file' }, async (args) => ({
      contents:
        (/\.json$/.test(args.path)
          ? ''
          : `const __dirname = ${JSON.stringify(path.dirname(args.path))}, __filename = ${JSON.stringify(args.path)};`) +
        (await readFile(args.path, 'utf8')),
      loader: (/\.(json|ts|mts)$/.exec(args.path)?.[1]?.replace('mts', 'ts') ?? 'js') as Loader,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/** Runs the configuration file; throws (with the tool's own message) when the file itself is broken. */
export async function loadConfig(file: string): Promise<LoadedConfig> {
  const bundled = await build({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    target: 'node20',
    plugins: [syntaxDecidesFormat],
  });
  const code = bundled.outputFiles[0]?.text ?? '';
  const missing = new Set<string>();
  const realRequire = createRequire(file);
  const requireOrStandIn = (id: string): unknown => {
    try {
      return realRequire(id) as unknown;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || id.startsWith('.')) throw error;
      missing.add(id);
      return standIn(id);
    }
  };
  const module = { exports: {} as Record<string, unknown> };
  const run = runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, {
    filename: file,
  }) as (...args: unknown[]) => void;
  run(module.exports, requireOrStandIn, module, file, path.dirname(file));
  let exported: unknown = module.exports['default'] ?? module.exports;
  // VuePress 1 calls a config written as a function with its context; what is imported is the built site.
  if (typeof exported === 'function' && !isStandIn(exported)) {
    exported = await (exported as (ctx: { isProd: boolean }) => unknown)({ isProd: true });
  }
  if (exported === null || typeof exported !== 'object' || isStandIn(exported)) {
    throw new Error('the configuration does not export an object');
  }
  const config = exported as Record<string, unknown>;
  const unreadable: LoadedConfig['unreadable'] = [];
  collectStandIns(config, '', unreadable, new Set());
  return { config, unreadable };
}

function collectStandIns(value: unknown, at: string, found: LoadedConfig['unreadable'], seen: Set<object>): void {
  if (isStandIn(value)) {
    found.push({ option: at, module: String((value as Record<symbol, unknown>)[MISSING]) });
    return;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  for (const [key, child] of Object.entries(value)) collectStandIns(child, at ? `${at}.${key}` : key, found, seen);
}
