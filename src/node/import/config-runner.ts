import { createRequire } from 'node:module';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Runs an old site's configuration on a thread of its own (load-config.ts starts it): the config is
 * foreign code, and whatever it does (`process.exit`, a loop that never ends, a promise that never
 * settles) must end this thread only, so the import can name the config and say what it did. What the
 * config gives is sent back as plain data: the import reads strings, numbers, lists and objects only.
 */

export interface RunnerInput {
  /** The config bundled to one CommonJS module (load-config.ts). */
  code: string;
  file: string;
}

export interface RunnerOutput {
  config: Record<string, unknown>;
  /** Options that held a stand-in for a missing package: `themeConfig.algolia` → `@docsearch/js`. */
  unreadable: { option: string; module: string }[];
}

export type RunnerMessage =
  { kind: 'config'; output: RunnerOutput } | { kind: 'error'; message: string } | { kind: 'exit'; code: string };

const MISSING = Symbol('missing module');

/**
 * A stand-in for a module that is not installed: any property, call or `new` gives another stand-in, so
 * the config runs on. Called with an object or a function, it returns it: `defineConfig({...})`,
 * `defineConfig((ctx) => ({...}))` and their kin are identity functions, and that is the configuration.
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
      const given = first !== null && (typeof first === 'object' || typeof first === 'function');
      return given && !isStandIn(first) ? first : standIn(module);
    },
    construct: () => standIn(module) as object,
  });
}

function isStandIn(value: unknown): boolean {
  return (typeof value === 'function' || typeof value === 'object') && value !== null && MISSING in value;
}

async function run({ code, file }: RunnerInput): Promise<RunnerOutput> {
  const realRequire = createRequire(file);
  const requireOrStandIn = (id: string): unknown => {
    try {
      return realRequire(id) as unknown;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || id.startsWith('.')) throw error;
      return standIn(id);
    }
  };
  const module = { exports: {} as Record<string, unknown> };
  const start = runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, {
    filename: file,
  }) as (...args: unknown[]) => void;
  start(module.exports, requireOrStandIn, module, file, path.dirname(file));
  let exported: unknown = module.exports['default'] ?? module.exports;
  // A config that is a function is called as the tools call it, for the site readers were given.
  const context = { isProd: true, command: 'build', mode: 'production', sourceDir: path.dirname(path.dirname(file)) };
  if (typeof exported === 'function' && !isStandIn(exported)) {
    exported = await (exported as (context: unknown) => unknown)(context);
  } else exported = await exported;
  if (exported === null || typeof exported !== 'object' || isStandIn(exported) || Array.isArray(exported)) {
    throw new Error('the configuration does not export an object');
  }
  const unreadable: RunnerOutput['unreadable'] = [];
  const config = toData(exported, '', unreadable, new Set()) as Record<string, unknown>;
  return { config, unreadable };
}

/**
 * The configuration as data that crosses to the import's thread. A stand-in becomes null and is listed
 * as unreadable; a function (a plugin, a markdown hook) becomes null too, so a plugin still counts in its
 * list; a cycle is cut. Values of other kinds (a RegExp, a Date) keep their text.
 */
function toData(value: unknown, at: string, unreadable: RunnerOutput['unreadable'], ancestors: Set<object>): unknown {
  if (isStandIn(value)) {
    unreadable.push({ option: at, module: String((value as Record<symbol, unknown>)[MISSING]) });
    return null;
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return String(value);
  if (typeof value !== 'object') return null;
  if (ancestors.has(value)) return null;
  const child = (key: string) => (at ? `${at}.${key}` : key);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item, i) => toData(item, child(String(i)), unreadable, ancestors));
    if (value instanceof RegExp || value instanceof Date) return String(value);
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    const data: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      if (item === undefined) continue;
      data[String(key)] = toData(item, child(String(key)), unreadable, ancestors);
    }
    return data;
  } finally {
    ancestors.delete(value);
  }
}

// `process.exit` ends this thread only; it says so first, for the import to tell it from a promise that
// never settled (the thread then ends too, with nothing left to run).
const exit = process.exit.bind(process);
process.exit = (code?: string | number | null) => {
  parentPort?.postMessage({ kind: 'exit', code: String(code ?? process.exitCode ?? 0) } satisfies RunnerMessage);
  return exit(code);
};

run(workerData as RunnerInput).then(
  (output) => parentPort?.postMessage({ kind: 'config', output } satisfies RunnerMessage),
  (error: unknown) =>
    parentPort?.postMessage({
      kind: 'error',
      message: error instanceof Error ? error.message : `it threw ${String(error)}`,
    } satisfies RunnerMessage),
);
