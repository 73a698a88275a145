import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { BAD_INPUTS, runBadInput } from './bad-inputs';

/**
 * Bad input to the build, each in a real temporary content tree: a clear `file:line:col` message and a
 * failed result (or correct output where the input is merely unusual), never a thrown exception, never a
 * partly written dist/.
 */
describe('the build given bad input', () => {
  it.each(BAD_INPUTS.map((input) => [input.name, input] as const))('%s', async (_name, input) => {
    const outcome = await runBadInput(input);
    expect(outcome.problems).toEqual([]);
    // Unusual input builds in reasonable time: the 5 MB page and the 5,000 headings included.
    expect(outcome.seconds).toBeLessThan(60);
    await rm(outcome.root, { recursive: true, force: true });
  });
});
