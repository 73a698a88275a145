/**
 * `npm test`'s static checks: the npm scripts named on the command line (the type check, ESLint and
 * Prettier). Alone (`npm run checks`) they run side by side: each uses one core and waits on nothing of
 * each other's. With `--beside SCRIPT`, SCRIPT (the tests) runs at the same time with its output shown
 * as it comes, and the checks run one after another, at a lower priority, on the core the tests leave
 * idle: most test files wait on a browser, a build or a server. Arguments after SCRIPT are passed to it. Each check's output
 * is printed whole when it ends (beside the tests, once they have ended), and the run fails if any of
 * them does.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

function run(script, { output = 'keep', args = [], priority } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const npmArgs = ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])];
    const child = spawn('npm', npmArgs, { stdio: ['ignore', output === 'show' ? 'inherit' : 'pipe', 'pipe'] });
    // The processes npm starts for the script inherit its priority.
    if (priority !== undefined && child.pid !== undefined) setPriority(child.pid, priority);
    let text = '';
    child.stdout?.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (output === 'show' ? process.stderr.write(chunk) : (text += chunk)));
    const end = (ok, extra = '') =>
      resolve({ script, ok, output: `${text}${extra}`, seconds: Math.round((Date.now() - started) / 1000) });
    child.on('error', (error) => end(false, `${error.message}\n`));
    child.on('close', (code) => end(code === 0));
  });
}

async function oneAfterAnother(scripts) {
  const results = [];
  // Below the tests' priority: a timed browser check (a tap at the first paint) keeps the core it needs.
  for (const script of scripts) results.push(await run(script, { priority: 10 }));
  return results;
}

const argv = process.argv.slice(2);
const at = argv.indexOf('--beside');
const checks = at === -1 ? argv : argv.slice(0, at);
const beside = at === -1 ? undefined : argv[at + 1];

const [results, tests] = await Promise.all([
  beside ? oneAfterAnother(checks) : Promise.all(checks.map((script) => run(script))),
  beside ? run(beside, { output: 'show', args: argv.slice(at + 2) }) : undefined,
]);
for (const { script, ok, output, seconds } of results) {
  process.stdout.write(`> ${script}: ${ok ? 'passed' : 'FAILED'} (${seconds} s)\n${ok ? '' : output}`);
}
process.exit(results.every((result) => result.ok) && (tests?.ok ?? true) ? 0 : 1);
