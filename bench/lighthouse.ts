/**
 * Lighthouse (mobile: its default emulation and simulated throttling) on a built dist/ served by the
 * project's preview server, in Debian's Chromium, five times per route: one run says little on a machine
 * that other work shares. Each route's four category scores become figures (the median, with the target
 * 100, and the worst run beside it), and so does its Total Blocking Time.
 */
import type { AddressInfo } from 'node:net';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { median } from './builds';
import type { Figure } from './report';

export const LIGHTHOUSE_ROUTES = ['', 'limits/', 'api/rest/'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

export interface LighthouseRun {
  route: string;
  /** Total Blocking Time as Lighthouse's simulation puts it; null when it could not. */
  tbtMs: number | null;
  /** 0–100 per category; null when Lighthouse could not score it. */
  scores: Record<Category, number | null>;
  /** The audits that cost points, by category: what to fix when a score is under 100. */
  failing: Record<string, string[]>;
}

/** Lighthouse runs per route. */
export const LIGHTHOUSE_RUNS = 5;
/** Total Blocking Time a route may have (median of its runs). */
const TBT_TARGET_MS = 100;

export async function measureLighthouse(
  distDir: string,
  routes = LIGHTHOUSE_ROUTES,
  runsPerRoute = LIGHTHOUSE_RUNS,
): Promise<LighthouseRun[]> {
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/`;
  const chrome = await chromeLauncher.launch({
    chromePath: ensureChromium(),
    chromeFlags: CHROMIUM_ARGS.map((flag) => (flag === '--headless' ? '--headless=new' : flag)),
  });
  try {
    const runs: LighthouseRun[] = [];
    for (const route of routes) {
      for (let run = 0; run < runsPerRoute; run++) runs.push(await runLighthouse(base, route, chrome.port));
    }
    return runs;
  } finally {
    chrome.kill();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function runLighthouse(base: string, route: string, port: number): Promise<LighthouseRun> {
  const result = await lighthouse(base + route, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned no report for /docs/${route}`);
  const scores = {} as LighthouseRun['scores'];
  const failing: LighthouseRun['failing'] = {};
  for (const category of CATEGORIES) {
    const entry = lhr.categories[category];
    scores[category] = entry?.score === null || entry?.score === undefined ? null : Math.round(entry.score * 100);
    failing[category] = (entry?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => `${audit!.id} (${audit!.score})`);
  }
  const tbt = lhr.audits['total-blocking-time']?.numericValue;
  return { route, tbtMs: typeof tbt === 'number' ? tbt : null, scores, failing };
}

export function lighthouseFigures(runs: LighthouseRun[]): Figure[] {
  const section = 'Lighthouse (mobile)';
  const routes = [...new Set(runs.map((run) => run.route))];
  return routes.flatMap((route) => {
    const own = runs.filter((run) => run.route === route);
    const count = `median of ${own.length}`;
    const scoreFigures = CATEGORIES.map((category): Figure => {
      const scores = own.map((run) => run.scores[category]).filter((s): s is number => s !== null);
      const short = [...new Set(own.flatMap((run) => run.failing[category] ?? []))];
      const notes = [
        scores.length ? `worst ${Math.min(...scores)}` : 'not scored',
        ...(short.length > 0 ? [`short of: ${short.join(', ')}`] : []),
      ];
      return {
        section,
        name: `/docs/${route} ${category} (${count})`,
        value: scores.length ? median(scores) : null,
        unit: 'count',
        target: { min: 100 },
        note: notes.join('; '),
      };
    });
    const tbts = own.map((run) => run.tbtMs).filter((t): t is number => t !== null);
    const tbt: Figure = {
      section,
      name: `/docs/${route} Total Blocking Time (${count})`,
      value: tbts.length ? Math.round(median(tbts)) : null,
      unit: 'ms',
      target: { max: TBT_TARGET_MS, inclusive: true },
      note: tbts.length ? `worst ${Math.round(Math.max(...tbts))} ms` : 'not measured',
    };
    return [...scoreFigures, tbt];
  });
}
