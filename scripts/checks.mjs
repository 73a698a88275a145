/**
 * `npm test`'s static checks, side by side: the type check, ESLint and Prettier each use one core and
 * wait on nothing of each other's. Each one's output is printed whole when it ends, and the run fails if
 * any of them does.
 */
import { spawn } from 'node:child_process';

const CHECKS = [
  ['typecheck', 'tsc', ['-b']],
  ['eslint', 'eslint', ['.']],
  ['prettier', 'prettier', ['--check', '.']],
];

function run([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, ok: false, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output }));
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const { name, ok, output } of results) {
  process.stdout.write(`> ${name}: ${ok ? 'passed' : 'FAILED'}\n${ok ? '' : output}`);
}
process.exit(results.every((result) => result.ok) ? 0 : 1);
