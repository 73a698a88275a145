/**
 * Paired A/B of click → next page painted (bench/clicks.ts) on two built sites, in turn (A B A B): ten
 * clicks right after load in a fresh tab each, `runs` times per site. Prints each run's median and worst,
 * and the medians of the runs, so that a change can be weighed on a machine whose load moves.
 *
 *   npx tsx bench/clicks-ab.ts --a DIST --b DIST [--route limits/] [--runs 4] [--hover 0]
 */
import { parseArgs } from 'node:util';
import { hydrated, newContext } from './browser';
import { median } from './builds';
import { clickTargets, timedClick } from './clicks';
import { pairedRuns } from './paired-runs';
import { loadAverage } from './report';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      a: { type: 'string' },
      b: { type: 'string' },
      route: { type: 'string', default: 'limits/' },
      runs: { type: 'string', default: '4' },
      clicks: { type: 'string', default: '10' },
      hover: { type: 'string', default: '0' },
    },
  });
  if (!values.a || !values.b) throw new Error('--a DIST --b DIST: two built sites');
  await pairedRuns([values.a, values.b], values.route, Number(values.runs), async (browser, site, run) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(site.url);
    await hydrated(page);
    const times: number[] = [];
    for (const { href, heading } of await clickTargets(page, site.dist, Number(values.clicks))) {
      const ms = await timedClick(page, href, heading, Number(values.hover));
      if (ms !== null) times.push(ms);
    }
    await context.close();
    console.log(
      `${site.label} run ${run}: median ${median(times).toFixed(1)} ms, worst ${Math.max(...times).toFixed(1)} ` +
        `(${times.map((t) => Math.round(t)).join(' / ')}); load ${loadAverage()}`,
    );
    return median(times);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
