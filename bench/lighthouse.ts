/**
 * Lighthouse (mobile: its default emulation and simulated throttling) on a built dist/ served by the
 * project's preview server, in Debian's Chromium. Each route's four category scores become figures with
 * the target 100.
 */
import type { AddressInfo } from 'node:net';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import type { Figure } from './report';

export const LIGHTHOUSE_ROUTES = ['', 'limits/', 'api/rest/'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

export interface LighthouseRun {
  route: string;
  /** 0–100 per category; null when Lighthouse could not score it. */
  scores: Record<Category, number | null>;
  /** The audits that cost points, by category: what to fix when a score is under 100. */
  failing: Record<string, string[]>;
}

export async function measureLighthouse(distDir: string, routes = LIGHTHOUSE_ROUTES): Promise<LighthouseRun[]> {
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
      const result = await lighthouse(base + route, {
        port: chrome.port,
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
      runs.push({ route, scores, failing });
    }
    return runs;
  } finally {
    chrome.kill();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export function lighthouseFigures(runs: LighthouseRun[]): Figure[] {
  return runs.flatMap((run) =>
    CATEGORIES.map((category): Figure => ({
      section: 'Lighthouse (mobile)',
      name: `/docs/${run.route} ${category}`,
      value: run.scores[category],
      unit: 'count',
      target: { min: 100 },
      note:
        run.scores[category] === null
          ? 'not scored'
          : (run.failing[category] ?? []).length > 0
            ? `short of: ${run.failing[category]!.join(', ')}`
            : undefined,
    })),
  );
}
