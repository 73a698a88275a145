import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BAD_INPUTS, runBadInput } from './bad-inputs';
import { SUMMARIES } from './summaries';

/**
 * Bad input to the build, each in a real temporary content tree: a clear `file:line:col` message and a
 * failed result (or correct output where the input is merely unusual), never a thrown exception, never a
 * partly written dist/.
 */
const outcomes: { name: string; handled: boolean; seconds: number }[] = [];

describe('the build given bad input', () => {
  it.each(BAD_INPUTS.map((input) => [input.name, input] as const))('%s', async (_name, input) => {
    const outcome = await runBadInput(input);
    outcomes.push({ name: outcome.name, handled: outcome.handled, seconds: outcome.seconds });
    expect(outcome.problems).toEqual([]);
    // Unusual input builds in reasonable time: the 5 MB page and the 5,000 headings included.
    expect(outcome.seconds).toBeLessThan(60);
    await rm(outcome.root, { recursive: true, force: true });
  });

  // For `npm run bench:resilience`: what was tried and how much of it the build handled.
  afterAll(async () => {
    const summary = {
      date: new Date().toISOString(),
      tried: outcomes.length,
      handled: outcomes.filter((o) => o.handled).length,
      cases: outcomes,
    };
    await mkdir(path.dirname(SUMMARIES.badInputs), { recursive: true });
    await writeFile(SUMMARIES.badInputs, `${JSON.stringify(summary, null, 2)}\n`);
  });
});
