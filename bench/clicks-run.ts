/**
 * Click → the next page painted (bench/clicks.ts), on its own: content/ from /docs/limits/ and the real tree
 * (the VuePress 1 docs imported as they are, bench/real-tree.ts) from its longest reference page, each built
 * once, then ten clicks right after load in a fresh tab, `runs` times in turn (A B A B, so that a machine
 * whose load changes meanwhile weighs on both trees alike). Prints the median and the worst of each run.
 *
 *   npx tsx bench/clicks-run.ts [--runs 3]
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { clicksInNewTab } from './browser';
import { buildPaths, buildSeries, createWorkspace, projectRoot, snapshotTree, type Workspace } from './builds';
import { clickFigures } from './clicks';
import { importRealTree, realTreeMissing, realTreeSource } from './real-tree';
import { formatTable, loadAverage, type Figure } from './report';

const CLICKS = 10;
const TARGET_MS = 50;
const BUILD_CAP_MS = 5 * 60_000;

interface Tree {
  label: string;
  dist: string;
  route: string;
}

async function built(ws: Workspace, name: string, content: string, strict: boolean): Promise<string> {
  const paths = { ...buildPaths(ws, name, content), strict };
  const series = await buildSeries(name, 1, () => paths, BUILD_CAP_MS);
  if (series.runs.length === 0) throw new Error(`${name}: ${series.error ?? 'the build was stopped'}`);
  return paths.out;
}

async function trees(ws: Workspace): Promise<Tree[]> {
  const content = await snapshotTree(ws, path.join(projectRoot, 'content'), 'content-src');
  const list = [{ label: 'content/', dist: await built(ws, 'content', content, true), route: 'limits/' }];
  const missing = realTreeMissing();
  if (missing) {
    console.log(`the real tree is skipped:\n${missing}`);
    return list;
  }
  const real = path.join(ws.root, 'real-src');
  await importRealTree(real);
  const route = realTreeSource(real).route;
  return [...list, { label: 'real tree', dist: await built(ws, 'real', real, false), route }];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
  const runs = Number(values.runs);
  const ws = await createWorkspace();
  const servers: Server[] = [];
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const figures: Figure[] = [];
  console.log(`load average at the start: ${loadAverage()}`);
  try {
    const served: (Tree & { url: string })[] = [];
    for (const tree of await trees(ws)) {
      const server = createSiteServer({ distDir: tree.dist });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/${tree.route}`;
      served.push({ ...tree, url });
    }
    for (let run = 1; run <= runs; run++) {
      for (const tree of served) {
        const problems: string[] = [];
        const times = await clicksInNewTab(browser, tree.url, tree.dist, CLICKS, problems);
        figures.push(...clickFigures(`${tree.label}, run ${run}`, times, TARGET_MS));
        for (const problem of problems) console.log(`${tree.label}: ${problem}`);
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    await ws.dispose();
  }
  console.log(formatTable(figures));
  console.log(`load average at the end: ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
