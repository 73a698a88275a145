import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../src/shared/edit-distance';

/** Every cell of the table, no bound: the distance the bounded walk must agree with up to `max + 1`. */
function fullDistance(a: string, b: string): number[] {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      row.push(value);
    }
    [before, previous] = [previous, row];
  }
  return previous;
}

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('okat', 'okta')).toBe(1);
    expect(editDistance('pagnation', 'pagination')).toBe(1);
    expect(editDistance('webhok', 'webhook')).toBe(1);
    expect(editDistance('timout', 'timeout')).toBe(1);
    expect(editDistance('credentails', 'credential')).toBe(2);
  });

  it('stops above the bound and can compare with the beginning of a longer word', () => {
    expect(editDistance('abcd', 'wxyz', 2)).toBe(3);
    expect(editDistance('webhok', 'webhooks', 1)).toBe(2);
    expect(editDistance('webhok', 'webhooks', 1, true)).toBe(1);
    expect(editDistance('envir', 'environment', 1, true)).toBe(0);
    expect(editDistance('enviro', 'environment', 1, true)).toBe(0);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(editDistance('', 'abc', 5)).toBe(3);
    expect(editDistance('same', 'same', 0)).toBe(0);
  });

  it('agrees with the full table for any words, bound and prefix comparison', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 12 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 6 }), fc.boolean(), (a, b, max, prefix) => {
        const last = fullDistance(a, b);
        // With `prefix`, b's beginnings one shorter than a to one longer, or all of b when it is shorter.
        const ends = prefix
          ? [a.length - 1, a.length, a.length + 1].filter((j) => j >= 0 && j <= b.length)
          : [b.length];
        if (prefix && b.length < a.length - 1) ends.push(b.length);
        const expected = Math.min(max + 1, ...ends.map((j) => last[j] ?? max + 1));
        expect(editDistance(a, b, max, prefix)).toBe(a === b ? 0 : expected);
      }),
      { numRuns: 2000 },
    );
  });
});
