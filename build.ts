/**
 * `npm run build [-- --content DIR --manifest DIR --out DIR --cache DIR --no-strict --wait]`
 * Thin command line around src/node/build.ts: parse options, print diagnostics and one summary line. npm
 * runs it compiled (src/node/compiled.ts). While another build writes the same folders or cache, a build is
 * refused with exit code 75 and the other build's pid and start; `--wait` waits for it instead.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { build } from './src/node/build';
import { BuildLockedError, LOCKED_EXIT_CODE } from './src/node/output/build-lock';
import { projectRootOf } from './src/node/compiled';
import { formatDiagnostic } from './src/node/diagnostics';

const root = projectRootOf(import.meta.url);

/**
 * How much bytecode a function runs before V8 considers optimising it: four times V8's default. A build is
 * a short batch job; with the default, much of a cold build's CPU went to the optimising compiler's
 * background threads, mostly on functions that had little left to run. The hot loops (the tokenizer, the
 * markdown lexer) are still optimised, a little later. Set here, by the command, because it is
 * process-wide: the build as a library (tests, `npm run dev`) leaves the process as it finds it.
 */
setFlagsFromString('--interrupt-budget=270336');

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        content: { type: 'string', default: 'content' },
        manifest: { type: 'string', default: 'manifest' },
        out: { type: 'string', default: 'dist' },
        cache: { type: 'string', default: path.join(root, 'node_modules/.cache/docs-build') },
        strict: { type: 'boolean', default: true },
        'no-strict': { type: 'boolean', default: false },
        wait: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    console.error(
      `build: ${(error as Error).message}\nusage: npm run build -- [--content DIR] [--manifest DIR] [--out DIR] [--cache DIR] [--no-strict] [--wait]`,
    );
    return 2;
  }
  if (values.help) {
    console.log(
      'usage: npm run build -- [--content DIR] [--manifest DIR] [--out DIR] [--cache DIR] [--no-strict] [--wait]',
    );
    return 0;
  }
  const contentDir = path.resolve(values.content);
  let result;
  try {
    result = await build({
      contentDir,
      manifestDir: path.resolve(values.manifest),
      outDir: path.resolve(values.out),
      strict: !values['no-strict'],
      cacheDir: path.resolve(values.cache),
      srcDir: path.join(root, 'src'),
      log: (line) => console.log(line),
      waitForLock: values.wait,
    });
  } catch (error) {
    if (!(error instanceof BuildLockedError)) throw error;
    console.error(`build: ${error.message}`);
    return LOCKED_EXIT_CODE;
  }
  // One write for all of them: a large site reports thousands, and each write of its own is a system call.
  if (result.diagnostics.length > 0) process.stderr.write(`${result.diagnostics.map(formatDiagnostic).join('\n')}\n`);
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = result.diagnostics.length - errors;
  const status = result.ok ? 'built' : 'build failed:';
  console.log(
    `${status} ${result.pages} pages, ${warnings} warnings, ${errors} errors in ${result.seconds.toFixed(2)}s`,
  );
  if (!result.ok) console.log('the previous manifest/ and dist/ were left untouched');
  return result.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`build: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(70);
  },
);
