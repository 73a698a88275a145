import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closest, nearestName, suggestionLimit } from '../../../../src/node/markdown/suggest';
import { projectRoot } from '../../../helpers/tree';

/** The plain scan the index replaces: every candidate compared in full, the first of the fewest edits wins. */
function scanNearest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = suggestionLimit(name) + 1;
  for (const candidate of known) {
    const d = fullDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Edits counted in full, without a bound: insertions, deletions, substitutions and swaps of neighbours. */
function fullDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitute);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j] ?? 0, (before[j - 2] ?? 0) + 1);
      }
    }
    [before, previous] = [previous, current];
  }
  return previous[b.length] ?? 0;
}

/** The routes of the spec's site, copied the way the 10,000-page benchmark tree copies content/. */
const specRoutes = readFileSync(path.join(projectRoot, 'test/fixtures/spec/routes.txt'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.startsWith('/'));
const manyRoutes = Array.from({ length: 10 }, (_, copy) => specRoutes.map((r) => `/copy-${copy}${r}`)).flat();

describe('suggestions for a wrong name', () => {
  it('names the closest route, as the build reports it', () => {
    expect(closest('/workflow/steps/trigers/', ['/workflows/steps/triggers/', '/workflows/'])).toBe(
      ' (did you mean "/workflows/steps/triggers/"?)',
    );
    expect(closest('/nothing-like-it-at-all/', ['/workflows/', '/api/'])).toBe('');
    expect(closest('copy', [])).toBe('');
    // A swap of neighbouring letters is one edit, as in search.
    expect(closest('/api/atuh/', ['/api/auth/', '/api/'])).toBe(' (did you mean "/api/auth/"?)');
  });

  it('gives the plain scan’s answer for typos of every route of a large site', () => {
    const typos = manyRoutes
      .filter((_, i) => i % 23 === 0)
      .flatMap((route) => [
        route.replace(/s\//, '/'),
        route.slice(0, -2) + 'x/',
        route.toUpperCase(),
        `/missing${route}`,
        route.replace(/copy-\d+/, 'copy'),
      ]);
    expect(typos.length).toBeGreaterThan(250);
    for (const typo of typos) expect(nearestName(typo, manyRoutes)).toBe(scanNearest(typo, manyRoutes));
  });

  it('gives the plain scan’s answer for any name and list, short lists and indexed ones', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'D', '/', '-'), maxLength: 14 });
    fc.assert(
      fc.property(word, fc.array(word, { minLength: 0, maxLength: 150 }), (name, known) => {
        expect(nearestName(name, known)).toBe(scanNearest(name, known));
      }),
      { numRuns: 400 },
    );
  });

  it('answers many wrong routes against a large site without comparing each with every route', () => {
    const routes = Array.from({ length: 40 }, (_, copy) => manyRoutes.map((r) => `/s${copy}${r}`)).flat();
    const wrong = routes.filter((_, i) => i % 10 === 0).map((r) => r.replace(/\/$/, 'z/'));
    const started = performance.now();
    for (const route of wrong) expect(nearestName(route, routes)).toBeDefined();
    // A full scan is routes × wrong (about 5,000 × 50,000 comparisons) and takes minutes.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
