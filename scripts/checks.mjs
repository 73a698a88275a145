/**
 * `npm test`'s static checks, side by side: the npm scripts named on the command line (the type check,
 * ESLint and Prettier) each use one core and wait on nothing of each other's. Each one's output is
 * printed whole when it ends, and the run fails if any of them does.
 */
import { spawn } from 'node:child_process';

function run(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ script, ok: false, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ script, ok: code === 0, output }));
  });
}

const results = await Promise.all(process.argv.slice(2).map(run));
for (const { script, ok, output } of results) {
  process.stdout.write(`> ${script}: ${ok ? 'passed' : 'FAILED'}\n${ok ? '' : output}`);
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
