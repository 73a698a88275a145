/**
 * The frame of the bench's A B scripts (bench/clicks-ab.ts, bench/first-search-ab.ts): one built site or
 * two, served by the preview server and measured in turn, A B A B, in one Chromium, so that a change can be
 * weighed on a machine whose load moves. Each run prints its own figures; the frame prints the load
 * average at the start and the median of each site's runs at the end.
 */
import type { Browser } from 'playwright-core';
import { openSites } from './browser';
import { median } from './builds';

/** A built site as a run meets it: its label (A, B), its folder and the URL of the route measured. */
export interface PairedSite {
  label: string;
  dist: string;
  url: string;
}

/**
 * `runs` rounds of `measure` on each of `dists` in turn (labelled A, B), each run's median its answer;
 * prints the median of each site's run medians.
 */
export async function pairedRuns(
  dists: readonly string[],
  route: string,
  runs: number,
  measure: (browser: Browser, site: PairedSite, run: number) => Promise<number>,
): Promise<void> {
  const { browser, urls, close } = await openSites(dists, route);
  const sites = dists.map((dist, i): PairedSite => ({ label: String.fromCharCode(65 + i), dist, url: urls[i] ?? '' }));
  const medians = new Map<string, number[]>(sites.map((site) => [site.label, []]));
  try {
    for (let run = 1; run <= runs; run++) {
      for (const site of sites) medians.get(site.label)?.push(await measure(browser, site, run));
    }
  } finally {
    await close();
  }
  for (const [label, list] of medians)
    console.log(`${label}: median of the runs' medians ${median(list).toFixed(1)} ms`);
}
