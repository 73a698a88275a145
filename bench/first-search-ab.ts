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
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { serveSites } from './browser';
import { median } from './builds';
import { firstSearch, type FirstSearch } from './large-trees';
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
  const sites = [{ label: 'A', dist: values.a }, ...(values.b ? [{ label: 'B', dist: values.b }] : [])];
  const queries = values.queries.split(',');
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const medians = new Map<string, number[]>(sites.map((s) => [s.label, []]));
  console.log(`load average at the start: ${loadAverage()}`);
  const { urls, close } = await serveSites(
    sites.map((site) => site.dist),
    values.route,
  );
  try {
    for (let run = 1; run <= Number(values.runs); run++) {
      for (const [i, site] of sites.entries()) {
        const searches: FirstSearch[] = [];
        for (const query of queries) {
          // A tab that did not take its page over in time (a machine too busy) is reported, not fatal.
          const search = await firstSearch(browser, urls[i] ?? '', site.dist, query).catch((error: unknown) => {
            console.log(
              `${site.label} run ${run}: ${query}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
            );
            return { query, ms: null, gzipBytes: 0, wireBytes: 0, files: 0 };
          });
          searches.push(search);
        }
        const times = searches.map((s) => s.ms ?? Infinity);
        const runMedian = median(times);
        medians.get(site.label)?.push(runMedian);
        const largest = Math.max(...searches.map((s) => s.gzipBytes));
        const each = searches.map((s) => `${s.query} ${s.ms === null ? 'none' : Math.round(s.ms)}`).join(', ');
        console.log(
          `${site.label} run ${run}: median ${Math.round(runMedian)} ms (${each}); largest download ` +
            `${(largest / KB).toFixed(1)} KB gzip -9; load ${loadAverage()}`,
        );
      }
    }
    for (const [label, values] of medians) {
      console.log(`${label}: median of the runs' medians ${Math.round(median(values))} ms`);
    }
  } finally {
    await browser.close();
    close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
