import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  closest,
  closestRoute,
  nearestName,
  nearestRoute,
  RouteSuggestions,
  SEGMENT_EDITS,
  suggestionLimit,
} from '../../../../../src/node/analyze/markdown/suggest';
import { projectRoot } from '../../../../helpers/tree';

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

/**
 * The plain scan: every name within `limit` edits that `fits` compared in full; the fewest edits, then the
 * first, wins.
 */
function scanNearest(
  name: string,
  known: readonly string[],
  limit: number,
  fits: (d: number, candidate: string) => boolean,
) {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    // Names of lengths further apart than the limit are no suggestion: the full count would only take time.
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const d = fullDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance && d <= limit && fits(d, candidate)) [best, bestDistance] = [candidate, d];
  }
  return best;
}

const folderOf = (route: string) => route.toLowerCase().replace(/[^/]*\/?$/, '');
/** The rule for routes: one edit anywhere, or `SEGMENT_EDITS` in the last segment of a route in the same folder. */
const scanRoute = (route: string, routes: readonly string[]) =>
  scanNearest(route, routes, SEGMENT_EDITS, (d, candidate) => d <= 1 || folderOf(candidate) === folderOf(route));
const scanName = (name: string, known: readonly string[]) =>
  scanNearest(name, known, suggestionLimit(name), () => true);

/** The routes of the spec's site, copied the way the 10,000-page benchmark tree copies content/. */
const specRoutes = readFileSync(path.join(projectRoot, 'test/fixtures/spec/routes.txt'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.startsWith('/'));
const copies = (count: number) =>
  Array.from({ length: count }, (_, copy) => specRoutes.map((r) => `/copy-${copy}${r}`)).flat();
const manyRoutes = copies(10);

describe('suggestions for a wrong name', () => {
  it('names the route a typo meant, as the build reports it', () => {
    const routes = ['/workflows/', '/workflows/steps/', '/workflows/steps/triggers/', '/api/', '/api/auth/'];
    // A letter left out of the last segment, a folder misspelt, a `/` left out, neighbours swapped.
    expect(closestRoute('/workflows/steps/trigers/', routes)).toBe(' (did you mean "/workflows/steps/triggers/"?)');
    expect(closestRoute('/workflow/steps/triggers/', routes)).toBe(' (did you mean "/workflows/steps/triggers/"?)');
    expect(closestRoute('/workflows/stepstriggers/', routes)).toBe(' (did you mean "/workflows/steps/triggers/"?)');
    expect(closestRoute('/api/atuh/', routes)).toBe(' (did you mean "/api/auth/"?)');
    expect(closestRoute('/nothing-like-it-at-all/', routes)).toBe('');
    expect(closestRoute('/x/', [])).toBe('');
  });

  it('suggests nothing for a page that is gone, however long its route', () => {
    const routes = ['/guide/', '/guide/getting-started/', '/guide/deploy/', '/config/'];
    expect(nearestRoute('/guide/assets-and-static-files/', routes)).toBeUndefined();
    // Ten edits in a route of thirty letters is another page, not a typo.
    expect(nearestRoute('/guide/getting-started-again/', routes)).toBeUndefined();
  });

  it('suggests the route a relative link leads to from the root, when the writer meant it from there', () => {
    // apps/twitter/README.md links `workflows/steps/code/`: from the page it leads nowhere.
    const routes = ['/copy1/workflows/steps/code/', '/workflows/steps/code/', '/apps/twitter/'];
    const broken = '/apps/twitter/workflows/steps/code/';
    const link = { written: 'workflows/steps/code/', file: 'apps/twitter/README.md' };
    expect(closestRoute(broken, routes, link)).toBe(' (did you mean "/workflows/steps/code/"?)');
    expect(nearestRoute('/guide/setup/', ['/setup/'], { written: 'setup.md', file: 'guide/README.md' })).toBe(
      '/setup/',
    );
    // A link written from the root gets the nearest route as any other.
    const fromRoot = { written: broken, file: 'apps/twitter/README.md' };
    expect(nearestRoute(broken, routes, fromRoot)).toBeUndefined();
  });

  it('suggests the route a relative link leads to from its file’s folder, as an older site read it', () => {
    // guide/frontmatter.md is at /guide/frontmatter/: from there `../theme/x.html` is /guide/theme/x/.
    const routes = ['/theme/x/', '/copy1/theme/x/', '/copy1/guide/frontmatter/'];
    const link = { written: '../theme/x.html#search', file: 'copy1/guide/frontmatter.md' };
    expect(nearestRoute('/copy1/guide/theme/x/', routes, link)).toBe('/copy1/theme/x/');
  });

  it('names the closest anchor or constant, a section renamed a little too', () => {
    expect(closest('instal', ['usage', 'install', 'installation'])).toBe(' (did you mean "install"?)');
    const headings = ['git-repository-and-edit-links', 'import-code-snippets-beta', 'search-box'];
    expect(closest('git-repo-and-edit-links', headings)).toBe(' (did you mean "git-repository-and-edit-links"?)');
    expect(closest('import-code-snippets', headings)).toBe(' (did you mean "import-code-snippets-beta"?)');
    expect(closest('LIMTI', ['LIMIT', 'TIMEOUT'])).toBe(' (did you mean "LIMIT"?)');
    expect(closest('configuration-reference', ['configuration', 'reference'])).toBe('');
    expect(closest('copy', [])).toBe('');
  });

  it('gives the plain scan’s answer for typos of every route of a large site', () => {
    const typos = manyRoutes
      .filter((_, i) => i % 23 === 0)
      .flatMap((route) => [
        route.replace(/s\//, '/'),
        route.slice(0, -2) + 'x/',
        route.toUpperCase(),
        route.replace(/\/([^/]+)\/$/, '$1/'),
        route.replace(/copy-\d+/, 'copy'),
        `/missing${route}`,
      ]);
    expect(typos.length).toBeGreaterThan(250);
    let suggested = 0;
    for (const typo of typos) {
      const expected = scanRoute(typo, manyRoutes);
      expect(nearestRoute(typo, manyRoutes)).toBe(expected);
      if (expected !== undefined) suggested++;
    }
    expect(suggested).toBeGreaterThan(typos.length / 2);
  });

  it('gives the plain scan’s answer for any name and list, short lists and indexed ones', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'D', '/', '-'), maxLength: 14 });
    fc.assert(
      fc.property(word, fc.array(word, { minLength: 0, maxLength: 150 }), (name, known) => {
        expect(nearestName(name, known)).toBe(scanName(name, known));
        expect(nearestRoute(name, known)).toBe(scanRoute(name, known));
      }),
      { numRuns: 400 },
    );
  });

  it('gives the plain scan’s answer in a folder of thousands of pages with long names, too many to index', () => {
    const slug = (i: number) => `a-post-about-workflows-steps-and-triggers-number-${String(i).padStart(5, '0')}`;
    const routes = Array.from({ length: 3000 }, (_, i) => `/blog/${slug(i)}/`);
    const typos = [`/blog/${slug(1234).replace('steps', 'stpes')}/`, `/blog/${slug(7)}x/`, '/blog/gone/', '/blgo/x/'];
    for (const typo of typos) expect(nearestRoute(typo, routes)).toBe(scanRoute(typo, routes));
    expect(nearestRoute(typos[0] ?? '', routes)).toBe(`/blog/${slug(1234)}/`);
  });

  it('does work in proportion to the links that match nothing, whatever the number of routes', () => {
    /** Links to pages and folders that are gone, and relative links read from the wrong folder, in every copy. */
    const work = (copyCount: number) => {
      const index = new RouteSuggestions(copies(copyCount));
      let links = 0;
      for (let copy = 0; copy < copyCount; copy++) {
        const gone = specRoutes.filter((_, i) => i % 3 === 0).map((route) => `${route}page-removed-long-ago/`);
        for (const route of [...gone, '/guides/old-tutorial/', '/api/v1/endpoints/users/']) {
          expect(index.nearest(`/copy-${copy}${route}`)).toBeUndefined();
          links++;
        }
        const relative = { written: 'workflows/steps/', file: `copy-${copy}/api/auth.md` };
        expect(index.nearest(`/copy-${copy}/api/auth/workflows/steps/`, relative)).toBeUndefined();
        links++;
      }
      return { links, examined: index.work.examined };
    };
    const small = work(4);
    const large = work(8);
    expect(small.links).toBeGreaterThan(150);
    expect(large.links).toBe(2 * small.links);
    // Twice the routes and twice the links: twice the work, where comparing each link with each route is four times.
    expect(large.examined).toBeLessThan(2.5 * small.examined);
  });
});
