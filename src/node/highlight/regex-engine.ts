import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createOnigurumaEngine, type PatternScanner, type RegexEngine } from 'shiki';

/** shiki's regular-expression engine (Oniguruma, WebAssembly), compiled once to be shared by threads. */
export async function compileRegexEngine(): Promise<WebAssembly.Module> {
  const file = createRequire(import.meta.url).resolve('shiki/onig.wasm');
  return WebAssembly.compile(await readFile(file));
}

/**
 * The engine a highlighter runs its grammars with: from `wasm` when given (compiled once by
 * `compileRegexEngine`, which saves compiling it per thread), otherwise from shiki's own copy.
 */
export async function createRegexEngine(wasm?: WebAssembly.Module): Promise<RegexEngine> {
  return sharingScanners(await createOnigurumaEngine(wasm ? instantiator(wasm) : import('shiki/wasm')));
}

/** shiki's loader for an engine compiled elsewhere; its types do not name WebAssembly.Module itself. */
function instantiator(module: WebAssembly.Module) {
  return (imports: Record<string, Record<string, unknown>> | undefined) => WebAssembly.instantiate(module, imports);
}

/**
 * The engine, with one scanner per distinct list of patterns. vscode-textmate compiles a scanner for each
 * rule, and for each way its anchors resolve; a quarter of those lists were compiled already (the same
 * rules included in many places, in the JavaScript grammar above all), and compiling is a third of
 * highlighting a site's code from cold. A shared scanner is freed when its last user lets it go.
 */
function sharingScanners(engine: RegexEngine): RegexEngine {
  const shared = new Map<string, { scanner: PatternScanner; users: number }>();
  return {
    createScanner(patterns) {
      const key = JSON.stringify(patterns.map((pattern) => (typeof pattern === 'string' ? pattern : pattern.source)));
      let entry = shared.get(key);
      if (!entry) {
        entry = { scanner: engine.createScanner(patterns), users: 0 };
        shared.set(key, entry);
      }
      const current = entry;
      current.users++;
      let disposed = false;
      return {
        findNextMatchSync: (string, start, options) => current.scanner.findNextMatchSync(string, start, options),
        dispose() {
          if (disposed) return;
          disposed = true;
          if (--current.users === 0) {
            shared.delete(key);
            current.scanner.dispose?.();
          }
        },
      };
    },
    createString: (text) => engine.createString(text),
  };
}
