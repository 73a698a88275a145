/**
 * `npm run compile` in plain Node, before `npm run build` and `npm run dev`: runs the compiled compiler
 * (scripts/compile.ts), which compiles again, itself included, whenever a source changed. A checkout that
 * was never compiled, or whose compiler changed since (the list of entry points is in it: a moved file
 * would send the old compiler looking for it), starts tsx for it. JavaScript, not TypeScript: Node 20 runs
 * no TypeScript.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../node_modules/.cache/docs-node/compile.mjs', import.meta.url);
const compilerSources = ['./compile.ts', '../src/node/compiled.ts', '../src/node/write-aside.ts'].map(
  (file) => new URL(file, import.meta.url),
);
const current =
  existsSync(compiled) && compilerSources.every((source) => statSync(source).mtimeMs < statSync(compiled).mtimeMs);
if (current) {
  await import(compiled.href);
} else {
  const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
  const source = fileURLToPath(new URL('./compile.ts', import.meta.url));
  const result = spawnSync(process.execPath, [tsx, source], { stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
}
