/**
 * The large trees' first search (bench/large-trees.ts: each query typed into a fresh tab, keystroke of the
 * first letter → first result drawn) on its own, on one built site or two in turn (A B A B), so that a
 * change to search can be weighed without the whole bench on a machine whose load moves. Prints each run's
 * times, its median and its largest download, then the median of each site's runs.
 *
 *   npx tsx bench/first-search-ab.ts --a DIST [--b DIST] [--route theme/default-theme-config/] [--runs 4]
 *     [--queries frontmatter,plugin,deploy,sidebar,markdown]
 */
import { parseArgs } from 'node:util';
import { median } from './builds';
import { firstSearch, type FirstSearch } from './large-trees';
import { pairedRuns } from './paired-runs';
import { realTreeSource } from './real-tree';
import { KB, loadAverage } from './report';

async function main(): Promise<void> {
  const real = realTreeSource('');
  const { values } = parseArgs({
    options: {
      a: { type: 'string' },
      b: { type: 'string' },
      route: { type: 'string', default: real.route },
      runs: { type: 'string', default: '4' },
      queries: { type: 'string', default: real.queries.join(',') },
    },
  });
  if (!values.a) throw new Error('--a DIST [--b DIST]: one or two built sites');
  const queries = values.queries.split(',');
  const dists = [values.a, ...(values.b ? [values.b] : [])];
  await pairedRuns(dists, values.route, Number(values.runs), async (browser, site, run) => {
    const searches: FirstSearch[] = [];
    for (const query of queries) {
      // A tab that did not take its page over in time (a machine too busy) is reported, not fatal.
      const search = await firstSearch(browser, site.url, site.dist, query).catch((error: unknown) => {
        console.log(
          `${site.label} run ${run}: ${query}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        );
        return { query, ms: null, gzipBytes: 0, wireBytes: 0, files: 0 };
      });
      searches.push(search);
    }
    const runMedian = median(searches.map((s) => s.ms ?? Infinity));
    const largest = Math.max(...searches.map((s) => s.gzipBytes));
    const each = searches.map((s) => `${s.query} ${s.ms === null ? 'none' : Math.round(s.ms)}`).join(', ');
    console.log(
      `${site.label} run ${run}: median ${Math.round(runMedian)} ms (${each}); largest download ` +
        `${(largest / KB).toFixed(1)} KB gzip -9; load ${loadAverage()}`,
    );
    return runMedian;
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
