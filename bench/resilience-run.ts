/**
 * `npm run bench:resilience`: runs the resilience suite and the accessibility test (which write their
 * summaries into test-results/), then prints the resilience figures. The suites take a few minutes, so
 * `npm run bench` only reads the summaries they left, with their dates.
 */
import { spawnSync } from 'node:child_process';
import { formatTable, summary } from './report';
import { resilienceFigures } from './resilience';
import { projectRoot } from './builds';

const SUITES = [
  ['--project', 'resilience'],
  ['--project', 'resilience-load'],
  ['--project', 'e2e', 'test/e2e/accessibility.test.ts'],
];

let failed = false;
for (const args of SUITES) {
  const run = spawnSync('npx', ['vitest', 'run', ...args], { cwd: projectRoot, stdio: 'inherit' });
  failed ||= run.status !== 0;
}
const figures = await resilienceFigures();
console.log(`\n${formatTable(figures)}\n\n${summary(figures)}`);
// A failed suite is a finding, not a slow machine: say so in the exit code too.
if (failed) {
  console.error('\nA resilience suite failed; the figures above are from its last complete summaries.');
  process.exitCode = 1;
}
