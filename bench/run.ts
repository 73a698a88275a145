/**
 * `npm run bench`: every speed figure the project's issues ask for, in one table, with its target and a
 * ✓/✗ beside it, and the same as JSON in bench/results.json. A slow machine gives slow figures, never a
 * failed run; a figure that could not be taken says so and never gets an invented number.
 *
 * The large trees (2,000 and 10,000 pages, of `content/` and of a real docs tree, bench/real-tree.ts)
 * take most of its time; a large tree's build is stopped (and reported as a lower bound) past five
 * minutes. BENCH_BUILD_CAP_SECONDS=900 sets that cap. The real trees' figures are also set beside those
 * of `content/` in tables of their own. See bench/README.md.
 *
 *   npm run bench                               everything
 *   npm run bench -- --only real                only the real trees (JSON in bench/results-real.json),
 *                                               beside the content/ figures of the last run that had them
 *   npm run bench -- --only large               only the large trees, content/ and real (JSON in
 *                                               bench/results-large.json)
 *   npm run bench -- --only real --pages 2000   only the large trees of that size
 *   npm run bench -- --only takeover            only the app's takeover of content/'s pages: one build,
 *                                               the initial JS, the longest main-thread tasks after the
 *                                               first paint and Lighthouse (JSON in bench/results-takeover.json)
 *   npm run bench -- --only versions            only what versions cost a build (bench/versions.ts; JSON in
 *                                               bench/results-versions.json)
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  buildPaths,
  buildSeries,
  createWorkspace,
  devRebuildAfterEdit,
  fullRebuildAfterEdit,
  projectRoot,
  rebuildFigure,
  seriesFigures,
  snapshotTree,
  type RebuildOnePage,
  type Workspace,
} from './builds';
import { browserFigures, measureBrowser } from './browser';
import { canonicalRoute } from '../src/shared/paths';
import { devFigures, measureDev } from './dev';
import { diagramsMathFigures, measureDiagramsMath } from './diagrams-math';
import { importFigures, measureImport } from './import';
import {
  CONTENT_SOURCE,
  LARGE_TARGETS,
  largeTreeFigures,
  largeTreePaths,
  measureLargeTree,
  type LargeTree,
  type TreeSource,
} from './large-trees';
import { lighthouseFigures, measureLighthouse } from './lighthouse';
import { REAL_TREE_DIR, REAL_TREE_HOWTO, realTreeMissing, realTreeSource } from './real-tree';
import { formatComparison, formatTable, KB, MB, summary, verdict, type Figure } from './report';
import { resilienceFigures } from './resilience';
import { measureTakeover, takeoverFigures } from './takeover';
import { findSearchData, measureInWorker, searchFigures } from './search';
import { initialAssets, SIZE_TARGETS, sizeFigures } from './sizes';
import { versionFigures } from './versions';

const TARGETS = {
  contentColdMs: 1500,
  rebuildMs: 150,
  textVisibleMs: 300,
  navigationMs: 50,
  searchP95ContentMs: 16,
  searchP95BigMs: 40,
  bigEntryGzipBytes: 32 * KB,
  searchColdMs: 80,
  searchWarmMs: 30,
  large: LARGE_TARGETS,
};

const ROUTE = 'limits/';
const BIG_PAGES = 2000;
const BIG_TARGETS = { coldMs: 12_000, peakBytes: 700 * MB };

/** The large trees: copies of content/, then (when it is there) of the real tree. */
const largeTrees = (real: TreeSource | undefined): LargeTree[] => [
  { label: '2,000 pages', pages: BIG_PAGES, source: CONTENT_SOURCE, ...BIG_TARGETS },
  { label: '10,000 pages', pages: 10_000, source: CONTENT_SOURCE },
  { label: '10,000 pages, broken links', pages: 10_000, source: CONTENT_SOURCE, brokenLinks: true },
  ...(real
    ? [
        { label: '2,000 pages, real tree', pages: BIG_PAGES, source: real, brokenLinks: true, ...BIG_TARGETS },
        { label: '10,000 pages, real tree', pages: 10_000, source: real, brokenLinks: true },
      ]
    : []),
];

/** The real trees' figures beside those of the content/ trees of the same size. */
const COMPARED = [
  { title: '2,000 pages', labels: ['2,000 pages', '2,000 pages, real tree'] },
  { title: '10,000 pages', labels: ['10,000 pages', '10,000 pages, broken links', '10,000 pages, real tree'] },
];

interface Options {
  /** Only the real trees (`--only real`), only the large ones (`--only large`), or only the takeover. */
  only?: 'real' | 'large' | 'takeover' | 'versions';
  /** Only the large trees of these sizes (`--pages 2000`), or all. */
  pages?: number[];
}

function parseOptions(args: string[]): Options {
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const only = value('--only');
  if (only !== undefined && !['real', 'large', 'takeover', 'versions'].includes(only))
    throw new Error(`--only takes "real", "large", "takeover" or "versions", not "${only}"`);
  const pages = value('--pages')
    ?.split(',')
    .map((n) => Number(n.replace(/_/g, '')));
  if (pages?.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error('--pages takes page counts: --pages 2000,10000');
  return { ...(only ? { only: only as Options['only'] } : {}), ...(pages ? { pages } : {}) };
}

/**
 * The figures of earlier runs that had the large trees (bench/results.json, bench/results-large.json),
 * newest first, for `--only` to set beside its own.
 */
async function earlierRuns(): Promise<{ date: string; figures: Figure[] }[]> {
  const runs: { date: string; figures: Figure[] }[] = [];
  for (const file of ['bench/results.json', 'bench/results-large.json']) {
    try {
      const json = JSON.parse(await readFile(path.join(projectRoot, file), 'utf8')) as {
        meta: { date: string };
        figures: Figure[];
      };
      runs.push({ date: json.meta.date, figures: json.figures });
    } catch {
      // No such run yet.
    }
  }
  return runs.sort((a, b) => (a.date < b.date ? 1 : -1));
}
/** A large tree's build taking longer than this is stopped and reported as a lower bound. */
const LARGE_CAP_MS = 300_000;
const RUNS = 3;
/** A content/ build (or the rebuild series) taking longer than this is stopped: something is wrong. */
const SMALL_CAP_MS = 120_000;
const CAP_OVERRIDE_MS = Number(process.env['BENCH_BUILD_CAP_SECONDS'] || 0) * 1000;

/**
 * Rebuild after one page changed: `npm run dev`'s incremental rebuild, from the file being saved to the
 * open page showing it (bench/builds.ts devRebuildAfterEdit). BENCH_REBUILD=full measures a full build
 * after the edit instead.
 */
const rebuildOnePage: RebuildOnePage =
  process.env['BENCH_REBUILD'] === 'full' ? fullRebuildAfterEdit : devRebuildAfterEdit;

const progress = (line: string) => process.stderr.write(`· ${line}\n`);

async function section<T>(name: string, run: () => Promise<T>): Promise<T | Error> {
  const started = performance.now();
  progress(`${name}…`);
  try {
    const result = await run();
    progress(`${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    progress(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof Error ? error : new Error(String(error));
  }
}

const failedFigure = (sectionName: string, name: string, error: Error): Figure => ({
  section: sectionName,
  name,
  value: null,
  unit: 'ms',
  note: `not measured: ${error.message.split('\n')[0]}`,
});

/** The markdown file of a route: `x.md`, `x/README.md` or `x/index.md`. */
async function pageFile(contentDir: string, route: string): Promise<string> {
  const base = path.join(contentDir, route.replace(/\/$/, ''));
  const candidates = [`${base}.md`, path.join(base, 'README.md'), path.join(base, 'index.md')];
  for (const file of candidates) if (existsSync(file)) return file;
  throw new Error(`no page file for /${route} in ${contentDir}`);
}

async function contentBuilds(ws: Workspace, content: string) {
  const cold = await buildSeries(
    'content/ cold',
    RUNS,
    (i) => buildPaths(ws, `content-cold-${i}`, content, `content-cold-${i}`),
    SMALL_CAP_MS,
    async (i) => rm(path.join(ws.cacheRoot, `content-cold-${i}`), { recursive: true, force: true }),
  );
  // Warm builds reuse the first cold build's cache; all write into one output, the one the browser serves.
  const warm = await buildSeries(
    'content/ warm',
    RUNS,
    () => buildPaths(ws, 'content', content, 'content-cold-0'),
    SMALL_CAP_MS,
  );
  const editable = await snapshotTree(ws, content, 'content-edit');
  const paths = buildPaths(ws, 'content-edit', editable, 'content-cold-0');
  const rebuild = await rebuildOnePage.measure({
    ws,
    paths,
    page: await pageFile(editable, ROUTE),
    timeoutMs: SMALL_CAP_MS,
  });
  return { cold, warm, rebuild };
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  /** Everything but the large trees: content/'s builds, browser, search, import, Lighthouse, resilience. */
  const smallOnes = opts.only === undefined;
  /** The figures of the app's takeover: the initial JS, the main thread after the first paint, Lighthouse. */
  const takeover = smallOnes || opts.only === 'takeover';
  const started = performance.now();
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    totalMemoryBytes: os.totalmem(),
    loadAverageAtStart: os.loadavg(),
  };
  progress(`bench on ${meta.cpus} cores, ${(meta.totalMemoryBytes / 1024 ** 3).toFixed(1)} GB, node ${meta.node}`);
  const ws = await createWorkspace();
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  const notBuilt = new Error('the content/ build did not finish');
  const sectionsOf = new Map<string, string>();
  const missing = opts.only === 'takeover' ? undefined : realTreeMissing();
  try {
    let distDir: string | undefined;
    const content = takeover ? await snapshotTree(ws, path.join(projectRoot, 'content'), 'content-src') : '';

    // 1. Builds of content/: cold, warm, and the rebuild after one page changed.
    const builds = smallOnes ? await section('content/ builds', () => contentBuilds(ws, content)) : undefined;
    if (builds instanceof Error) figures.push(failedFigure('Build', 'content/ builds', builds));
    else if (builds) {
      figures.push(...seriesFigures(builds.cold, { wallMs: TARGETS.contentColdMs }));
      figures.push(...seriesFigures(builds.warm, {}));
      figures.push(rebuildFigure(rebuildOnePage, builds.rebuild, TARGETS.rebuildMs));
      details['contentBuilds'] = builds;
      if (builds.warm.runs.length > 0) distDir = buildPaths(ws, 'content', content).out;
    }
    if (opts.only === 'takeover') {
      const built = await section('content/ build', () =>
        buildSeries('content/', 1, () => buildPaths(ws, 'content', content), SMALL_CAP_MS),
      );
      if (built instanceof Error || built.runs.length === 0) {
        const why = built instanceof Error ? built : new Error(built.error ?? 'the build was stopped');
        figures.push(failedFigure('Build', 'content/ build', why));
      } else distDir = buildPaths(ws, 'content', content).out;
    }

    // npm run dev on content/: the first answer, and save → shown in a tab.
    const dev = smallOnes
      ? await section('npm run dev content/', async () => {
          const editable = await snapshotTree(ws, path.join(projectRoot, 'content'), 'content-dev');
          return measureDev(editable, ROUTE, path.join(editable, 'limits/README.md'), SMALL_CAP_MS);
        })
      : undefined;
    if (dev instanceof Error) figures.push(failedFigure('Dev', 'npm run dev content/', dev));
    else if (dev) {
      figures.push(...devFigures('Dev (content/)', dev));
      details['devContent'] = dev;
    }

    // 2. Bundle sizes of the content/ build.
    const assets = takeover
      ? distDir
        ? await section('bundle sizes', () => initialAssets(distDir, ROUTE))
        : notBuilt
      : undefined;
    if (assets instanceof Error) figures.push(failedFigure('Bundle', 'bundle sizes', assets));
    else if (assets) {
      figures.push(...sizeFigures(assets, `/docs/${ROUTE}`, SIZE_TARGETS));
      details['bundle'] = assets;
    }

    // 3. Browser figures against the content/ build, served by the preview server.
    const browser = smallOnes
      ? distDir
        ? await section('browser', () =>
            measureBrowser(distDir, { route: ROUTE, visits: 5, navigations: 10, coldSearches: 3 }),
          )
        : notBuilt
      : undefined;
    if (browser instanceof Error) figures.push(failedFigure('Browser', 'browser figures', browser));
    else if (browser) {
      figures.push(...browserFigures(browser, TARGETS));
      details['browser'] = browser;
    }

    // 3b. The takeover: the longest main-thread task after the first paint, unthrottled and with the CPU
    // four times slower, five first visits of each route.
    const tasks = takeover
      ? distDir
        ? await section('takeover', () => measureTakeover(distDir))
        : notBuilt
      : undefined;
    if (tasks instanceof Error) figures.push(failedFigure('Takeover', 'main-thread tasks', tasks));
    else if (tasks) {
      figures.push(
        ...takeoverFigures(
          tasks,
          os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join(' '),
        ),
      );
      details['takeover'] = tasks;
    }

    // 4. Search in Node over the content/ index.
    const searchTargets = { p95Ms: TARGETS.searchP95ContentMs };
    const contentSearch = smallOnes
      ? distDir
        ? await section('search content/', async () => {
            const data = await findSearchData(distDir);
            return { data, latency: await measureInWorker(distDir) };
          })
        : notBuilt
      : undefined;
    if (contentSearch instanceof Error)
      figures.push(...(await searchFigures('content/', undefined, undefined, searchTargets, contentSearch.message)));
    else if (contentSearch) {
      figures.push(...(await searchFigures('content/', contentSearch.data, contentSearch.latency, searchTargets)));
      details['searchContent'] = { file: contentSearch.data.entry, latency: contentSearch.latency };
    }

    // 5. Large trees of real pages: copies of content/ (2,000 and 10,000 pages, and 10,000 pages whose
    // copies have broken links) and of the real tree. Builds, first visit, first searches, warm queries.
    if (missing) {
      progress(`no real tree at ${REAL_TREE_DIR}: its figures are skipped`);
      figures.push({
        section: 'Real tree',
        name: 'real-tree figures',
        value: null,
        unit: 'ms',
        note: `skipped: no docs tree at ${REAL_TREE_DIR}; how to get it is printed below the table`,
      });
    }
    const real = missing ? undefined : realTreeSource(path.join(ws.root, 'real-import', 'content'));
    const trees = largeTrees(real).filter(
      (tree) =>
        opts.only !== 'takeover' &&
        opts.only !== 'versions' &&
        (opts.only !== 'real' || tree.source === real) &&
        (!opts.pages || opts.pages.includes(tree.pages)),
    );
    for (const tree of trees) {
      const measured = await section(`${tree.label}: copy, build and browse`, () =>
        measureLargeTree(ws, tree, CAP_OVERRIDE_MS || LARGE_CAP_MS),
      );
      if (measured instanceof Error) {
        figures.push(failedFigure(tree.label, 'build and browse', measured));
        continue;
      }
      const treeFigures = largeTreeFigures(tree, measured);
      figures.push(...treeFigures);
      if (treeFigures[0]) sectionsOf.set(tree.label, treeFigures[0].section);
      details[tree.label] = measured;
      if (tree.pages === 10_000 && tree.source === real) {
        // npm run dev on the same copy, as a writer who moved the real tree over starts it: the tab shows
        // the page the bench edits (the build's one-page change edits a copy's page, not the one visited).
        const paths = largeTreePaths(ws, tree);
        const edit = path.join(paths.content, tree.source.edit);
        const editedRoute = canonicalRoute(`/${tree.source.edit.split(path.sep).join('/')}`).slice(1);
        const devMeasured = await section(`${tree.label}: npm run dev`, () =>
          measureDev(paths.content, editedRoute, edit, CAP_OVERRIDE_MS || LARGE_CAP_MS),
        );
        if (devMeasured instanceof Error) figures.push(failedFigure(tree.label, 'npm run dev', devMeasured));
        else {
          figures.push(...devFigures(treeFigures[0]?.section ?? tree.label, devMeasured));
          details[`${tree.label}: npm run dev`] = devMeasured;
        }
      }
      if (tree.pages !== BIG_PAGES || tree.brokenLinks || tree.source !== CONTENT_SOURCE) continue;
      // The search data of the 2,000-page tree, timed in the worker its own build ships.
      const label = `${BIG_PAGES.toLocaleString('en')} pages`;
      const bigTargets = { p95Ms: TARGETS.searchP95BigMs, entryGzipBytes: TARGETS.bigEntryGzipBytes };
      const bigDist = largeTreePaths(ws, tree).out;
      const bigSearch =
        measured.cold.runs.length > 0
          ? await section(`search ${label}`, async () => ({
              data: await findSearchData(bigDist),
              latency: await measureInWorker(bigDist),
            }))
          : new Error('the build did not finish');
      if (bigSearch instanceof Error)
        figures.push(...(await searchFigures(label, undefined, undefined, bigTargets, bigSearch.message)));
      else {
        figures.push(...(await searchFigures(label, bigSearch.data, bigSearch.latency, bigTargets)));
        details['searchBig'] = { file: bigSearch.data.entry, latency: bigSearch.latency };
      }
    }

    // 6. npm run import of the VuePress 1 fixture, and a cold build of what it wrote.
    const imported = smallOnes ? await section('import', () => measureImport(ws, SMALL_CAP_MS)) : undefined;
    if (imported instanceof Error) figures.push(failedFigure('Import', 'npm run import', imported));
    else if (imported) {
      figures.push(...importFigures(imported));
      details['import'] = imported;
    }

    // 6a. Versions built with the site: content/ and a copy as v1, five versions of the real tree (A B A B).
    if (smallOnes || opts.only === 'versions') figures.push(...(await versionFigures(missing, progress)));

    // 6b. 1,000 diagrams and 1,000 formulas, cold and after one page changed: their CPU beyond plain pages'.
    const extras = smallOnes ? await section('diagrams and math', () => measureDiagramsMath(2)) : undefined;
    if (extras instanceof Error) figures.push(failedFigure('Diagrams and math', 'builds', extras));
    else if (extras) {
      figures.push(...diagramsMathFigures(extras));
      details['diagramsMath'] = extras;
    }

    // 7. Lighthouse (mobile) on three routes of the content/ build, after the large trees' builds.
    const lighthouse = takeover
      ? distDir
        ? await section('lighthouse', () => measureLighthouse(distDir))
        : notBuilt
      : undefined;
    if (lighthouse instanceof Error) figures.push(failedFigure('Lighthouse (mobile)', 'scores', lighthouse));
    else if (lighthouse) {
      figures.push(...lighthouseFigures(lighthouse));
      details['lighthouse'] = lighthouse;
    }

    // 8. Resilience: read from the summaries of the last `npm run bench:resilience` (or npm test).
    if (smallOnes) figures.push(...(await resilienceFigures()));
  } finally {
    await ws.dispose();
  }

  const durationMs = performance.now() - started;
  const loadAverageAtEnd = os.loadavg();
  const load = (values: number[]) => values.map((l) => l.toFixed(2)).join(' ');
  const lines = [
    `Benchmark ${meta.date}: ${meta.cpus} cores (${meta.cpuModel}), ` +
      `${(meta.totalMemoryBytes / 1024 ** 3).toFixed(1)} GB RAM, node ${meta.node}`,
    `Load average at start ${load(meta.loadAverageAtStart)}, at end ${load(loadAverageAtEnd)}`,
  ];
  const busiest = Math.max(meta.loadAverageAtStart[0] ?? 0, loadAverageAtEnd[0] ?? 0);
  if (busiest > meta.cpus) {
    lines.push(
      `The machine was busy (load ${busiest.toFixed(1)} on ${meta.cpus} cores): other work inflates these times.`,
    );
  }
  lines.push('', formatTable(figures), '', `${summary(figures)}; the bench took ${(durationMs / 1000).toFixed(0)} s`);
  // The real trees beside the content/ trees of their size: this run's, or with --only the last run's that had them.
  const previous = opts.only ? await earlierRuns() : [];
  for (const { title, labels } of COMPARED) {
    const columns = labels.map((label) => {
      const section = sectionsOf.get(label);
      const own = section ? figures.filter((f) => f.section === section) : [];
      if (own.length > 0) return { name: label, figures: own };
      for (const run of previous) {
        const found = run.figures.filter((f) => f.section.startsWith(`${label} (`));
        if (found.length > 0) return { name: `${label} (${run.date.slice(0, 16).replace('T', ' ')})`, figures: found };
      }
      return { name: `${label} (not run)`, figures: own };
    });
    // Only the sizes whose real tree this run measured.
    if (!sectionsOf.has(labels.at(-1) ?? '')) continue;
    lines.push('', `${title}: content/ copies beside the real tree`, formatComparison(columns));
  }
  if (missing) lines.push('', REAL_TREE_HOWTO);
  console.log(`\n${lines.join('\n')}`);
  const out = path.join(projectRoot, opts.only ? `bench/results-${opts.only}.json` : 'bench/results.json');
  const json = {
    meta: { ...meta, loadAverageAtEnd, durationMs, units: 'ms and bytes (KB = 1024 bytes)' },
    targets: TARGETS,
    figures: figures.map((f) => ({ ...f, verdict: verdict(f) })),
    details,
  };
  await writeFile(out, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`JSON written to ${path.relative(process.cwd(), out)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
