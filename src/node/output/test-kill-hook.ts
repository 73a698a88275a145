/**
 * A test hook, for the resilience tests of a build killed while it updates its output folders. With
 * `DOCS_BUILD_TEST_KILL_AT=<moment>:<n>` in its environment the build kills itself with SIGKILL, as
 * `kill -9` would, at the nth time it reaches that moment: `write` (a file of an output about to be
 * written), `rename` (a file about to be moved into place), `sweep` (a folder about to lose the files
 * this build did not write) or `ledger` (a folder's ledger about to be saved). Unset, a moment costs one
 * string comparison.
 */
export type OutputMoment = 'write' | 'rename' | 'sweep' | 'ledger';

const [killMoment = '', killAfter = ''] = (process.env['DOCS_BUILD_TEST_KILL_AT'] ?? '').split(':');
let reached = 0;

export function outputMoment(moment: OutputMoment): void {
  if (moment !== killMoment) return;
  reached += 1;
  if (reached === Number(killAfter)) process.kill(process.pid, 'SIGKILL');
}
