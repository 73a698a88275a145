/**
 * What versions built with the site cost, part of `npm run bench` (`--only versions` for these alone, or
 * `npx tsx bench/versions.ts [--pairs 2] [--only content|real]`):
 *   - content/ alone against content/ with a copy of itself as v1 (`strict: false`): a cold build and a
 *     full build after one page of the current version changed;
 *   - the 2,000-page real tree (bench/real-tree.ts) alone against five versions of it, each 5 % of its
 *     pages different from the next: the same two builds, and the peak memory of the cold one.
 * Each build runs in a child process of its own (bench/builds.ts), the two sites in turns (A B A B), so
 * that a busy machine slows both alike: the figures are the ratios of each pair, their median reported,
 * with the load average they were taken under.
 */
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';
import type { BuildMeasurement } from './build-protocol';
import { buildInChild, createWorkspace, median, projectRoot, type Workspace } from './builds';
import { copyRealTree, importRealTree, realTreeMissing } from './real-tree';
import { formatTable, MB, type Figure } from './report';

export const VERSION_TARGETS = {
  content: { coldRatio: 1.5, onePageRatio: 1.3 },
  real: { coldRatio: 2, onePageRatio: 1.2, peakBytes: 1024 * MB },
};

type Progress = (line: string) => void;
const noProgress: Progress = () => undefined;

/** A site of the comparison: its folders, and the page of its current version that is edited. */
interface BenchSite {
  root: string;
  strict: boolean;
  edit: string;
}

/** One pair's builds: the site alone (A) and with its versions (B). */
interface Pair {
  alone: BuildMeasurement;
  versioned: BuildMeasurement;
}

export interface VersionsComparison {
  label: string;
  versions: number;
  pages: { alone: number; versioned: number };
  cold: Pair[];
  /** The median of the rebuilds after one edit, in each site. */
  onePage: Pair[];
  loadAverage: number[][];
}

const args = (site: BenchSite) => {
  const list = ['--content', path.join(site.root, 'content'), '--out', path.join(site.root, 'dist')];
  list.push('--manifest', path.join(site.root, 'manifest'), '--cache', path.join(site.root, '.cache'));
  return site.strict ? list : [...list, '--no-strict'];
};

async function buildOnce(site: BenchSite, timeoutMs: number, extra: string[] = []): Promise<BuildMeasurement[]> {
  const outcome = await buildInChild([...args(site), ...extra], timeoutMs);
  if (outcome.stopped) throw new Error(`a build was stopped at the ${timeoutMs / 1000} s cap`);
  if (outcome.error) throw new Error(outcome.error);
  const builds = outcome.report?.builds ?? [];
  const failed = builds.find((build) => !build.ok);
  if (failed || builds.length === 0) throw new Error(`build failed: ${failed?.diagnostics.join('; ') ?? 'no report'}`);
  return builds;
}

/**
 * A cold build: no cache, no output. The folders of the build before are moved aside (`spentFolder`), not
 * deleted, until the comparison has ended: on ext4 without a journal, a file made in the minutes after
 * many were deleted costs the kernel a search among the deleted ones, so that the bench's own deletions
 * slowed the builds it measured, the larger site the more (pairs of the same two builds drifted from
 * 2.5 to 5 times each other).
 */
async function cold(site: BenchSite, timeoutMs: number): Promise<BuildMeasurement> {
  for (const folder of ['dist', 'manifest', '.cache']) {
    const from = path.join(site.root, folder);
    if (existsSync(from)) await rename(from, path.join(await spentFolder(site), folder));
  }
  return (await buildOnce(site, timeoutMs))[0] as BuildMeasurement;
}

let spentCount = 0;

/** A new folder beside the site's for the outputs a cold build replaces, deleted once its comparison ends. */
async function spentFolder(site: BenchSite): Promise<string> {
  const folder = path.join(spentRoot(site), String(spentCount++));
  await mkdir(folder, { recursive: true });
  return folder;
}

const spentRoot = (site: BenchSite) => `${site.root}-spent`;

/** Full builds after one page of the current version changed, in a process that built the site once: their median. */
async function onePage(site: BenchSite, timeoutMs: number): Promise<BuildMeasurement> {
  const builds = await buildOnce(site, timeoutMs, [
    '--edit',
    path.join(site.root, 'content', site.edit),
    '--repeat',
    '3',
  ]);
  const wall = median(builds.map((build) => build.wallMs));
  return builds.find((build) => build.wallMs === wall) ?? { ...(builds[0] as BuildMeasurement), wallMs: wall };
}

/** Every markdown file of a folder, relative to it, in a stable order. */
async function markdownFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A site of `count` versions made from the content folder `source`: the current one as it is, each older
 * one a copy of the next newer with `changed` of its pages edited (a sentence added), at `/v1/`, `/v2/`, ….
 */
export async function versionedSite(source: string, root: string, count: number, changed: number): Promise<void> {
  await cp(source, path.join(root, 'content'), { recursive: true });
  const pages = await markdownFiles(source);
  const every = changed > 0 ? Math.round(1 / changed) : 0;
  let newer = path.join(root, 'content');
  const entries: Record<string, unknown>[] = [{ text: `v${count}`, current: true }];
  for (let n = count - 1; n >= 1; n--) {
    const folder = path.join(root, `v${n}`);
    await cp(newer, folder, { recursive: true });
    // Another 5 % each time: the pages whose place in the list falls on this version's turn.
    for (const [index, page] of pages.entries()) {
      if (every > 0 && index % every === n % every)
        await appendFile(path.join(folder, page), `\nAs it was in v${n}.\n`);
    }
    entries.push({ text: `v${n}`, content: `../v${n}`, route: `/v${n}/`, strict: false });
    newer = folder;
  }
  const siteFile = path.join(root, 'content/_site.yaml');
  const site = parse(await readFile(siteFile, 'utf8')) as Record<string, unknown>;
  await writeFile(siteFile, stringify({ ...site, versions: entries }));
}

/** A build's CPU: its process's and its helpers', which a busy machine inflates far less than its wall time. */
const cpuMs = (build: BuildMeasurement) => build.cpuMs + (build.helperCpuMs ?? 0);

/** A build's wall and CPU seconds (the CPU its process and its helpers spent, which a busy machine does not inflate). */
const seconds = (build: BuildMeasurement) =>
  `${(build.wallMs / 1000).toFixed(2)} s (CPU ${(cpuMs(build) / 1000).toFixed(1)} s)`;

/** The two sites built in turns, `pairs` times: cold, then one page changed. */
async function compare(
  label: string,
  alone: BenchSite,
  versioned: BenchSite,
  versions: number,
  pairs: number,
  timeoutMs: number,
  progress: (line: string) => void,
): Promise<VersionsComparison> {
  const result: VersionsComparison = {
    label,
    versions,
    pages: { alone: 0, versioned: 0 },
    cold: [],
    onePage: [],
    loadAverage: [],
  };
  // BENCH_VERSIONS_COLD=0: the one-page figures alone (their first build, not counted, is then cold).
  const coldPairs = Number(process.env['BENCH_VERSIONS_COLD'] ?? pairs);
  for (let pair = 0; pair < coldPairs; pair++) {
    result.loadAverage.push(loadavg());
    const a = await cold(alone, timeoutMs);
    const b = await cold(versioned, timeoutMs);
    result.cold.push({ alone: a, versioned: b });
    result.pages = { alone: a.pages, versioned: b.pages };
    progress(`${label}, cold, pair ${pair + 1}: ${seconds(a)} / ${seconds(b)}`);
  }
  for (let pair = 0; pair < pairs; pair++) {
    result.loadAverage.push(loadavg());
    const a = await onePage(alone, timeoutMs);
    const b = await onePage(versioned, timeoutMs);
    result.onePage.push({ alone: a, versioned: b });
    result.pages = { alone: a.pages, versioned: b.pages };
    progress(`${label}, one page, pair ${pair + 1}: ${seconds(a)} / ${seconds(b)}`);
  }
  result.loadAverage.push(loadavg());
  for (const site of [alone, versioned]) await rm(spentRoot(site), { recursive: true, force: true });
  return result;
}

/** content/ alone against content/ with a copy of itself as v1. */
export async function measureContentVersions(
  ws: Workspace,
  pairs: number,
  timeoutMs: number,
  progress: Progress = noProgress,
) {
  const source = path.join(projectRoot, 'content');
  const alone = { root: path.join(ws.root, 'versions-content-alone'), strict: true, edit: 'limits/README.md' };
  await cp(source, path.join(alone.root, 'content'), { recursive: true });
  const versioned = { ...alone, root: path.join(ws.root, 'versions-content-v1') };
  // A copy as it is: v1 differs from v2 by nothing but its place.
  await versionedSite(source, versioned.root, 2, 0);
  return compare('content/ and a copy as v1', alone, versioned, 2, pairs, timeoutMs, progress);
}

/** The 2,000-page real tree alone against five versions of it, each 5 % different from the next. */
export async function measureRealVersions(
  ws: Workspace,
  pairs: number,
  timeoutMs: number,
  progress: Progress = noProgress,
) {
  const missing = realTreeMissing();
  if (missing) throw new Error(missing.split('\n')[0]);
  const imported = path.join(ws.root, 'versions-real-import');
  await importRealTree(imported);
  const tree = path.join(ws.root, 'versions-real-tree');
  await copyRealTree(imported, tree, 2000, '');
  const edit = (await markdownFiles(path.join(tree, 'copy1')))[0] ?? '';
  const alone = { root: path.join(ws.root, 'versions-real-alone'), strict: false, edit: path.join('copy1', edit) };
  await cp(tree, path.join(alone.root, 'content'), { recursive: true });
  const versioned = { ...alone, root: path.join(ws.root, 'versions-real-5') };
  await versionedSite(tree, versioned.root, 5, 0.05);
  return compare('real tree, 2,000 pages, 5 versions', alone, versioned, 5, pairs, timeoutMs, progress);
}

const ratios = (pairs: Pair[]): number[] => pairs.map((pair) => pair.versioned.wallMs / pair.alone.wallMs);
const cpuRatios = (pairs: Pair[]): number[] => pairs.map((pair) => cpuMs(pair.versioned) / cpuMs(pair.alone));
const load = (values: number[][]) => {
  const first = values.map((v) => v[0] ?? 0);
  return `load ${Math.min(...first).toFixed(1)}–${Math.max(...first).toFixed(1)}`;
};

export function versionsFigures(
  measured: VersionsComparison,
  targets: { coldRatio: number; onePageRatio: number; peakBytes?: number },
): Figure[] {
  const section = `Versions (${measured.label})`;
  const note = (pairs: Pair[]) =>
    `A B pairs (s): ${pairs.map((p) => `${(p.alone.wallMs / 1000).toFixed(2)} / ${(p.versioned.wallMs / 1000).toFixed(2)}`).join(', ')}; ` +
    `ratios ${ratios(pairs)
      .map((r) => r.toFixed(2))
      .join(', ')}; CPU ratios ${cpuRatios(pairs)
      .map((r) => r.toFixed(2))
      .join(', ')}; ${measured.pages.alone} / ${measured.pages.versioned} pages; ${load(measured.loadAverage)}`;
  const figures: Figure[] = [
    {
      section,
      name: `cold build, ${measured.versions} versions / 1 (median ratio)`,
      value: measured.cold.length > 0 ? median(ratios(measured.cold)) : null,
      unit: 'ratio',
      target: { max: targets.coldRatio, inclusive: true },
      note: note(measured.cold),
    },
    {
      section,
      name: 'one page of the current version changed (median ratio)',
      value: median(ratios(measured.onePage)),
      unit: 'ratio',
      target: { max: targets.onePageRatio, inclusive: true },
      note: note(measured.onePage),
    },
  ];
  if (targets.peakBytes !== undefined && measured.cold.length > 0) {
    const peaks = measured.cold.map((pair) => pair.versioned.maxRssBytes);
    figures.push({
      section,
      name: `cold build, ${measured.versions} versions: peak memory`,
      value: Math.max(...peaks),
      unit: 'bytes',
      target: { max: targets.peakBytes, inclusive: true },
      note: `the child's maxRSS, worst of ${peaks.length}; alone ${measured.cold
        .map((pair) => Math.round(pair.alone.maxRssBytes / MB))
        .join(' / ')} MB`,
    });
  }
  return figures;
}

const PAIRS = 2;

/** The figures for `npm run bench`: both comparisons, or what kept each from being taken. */
export async function versionFigures(realMissing: string | undefined, progress: Progress): Promise<Figure[]> {
  const ws = await createWorkspace();
  const notTaken = (label: string, why: string): Figure => ({
    section: `Versions (${label})`,
    name: 'cold build and one page changed',
    value: null,
    unit: 'ratio',
    note: why,
  });
  const figures: Figure[] = [];
  try {
    const content = await measureContentVersions(ws, PAIRS, 600_000, progress).catch((error: Error) => error);
    if (content instanceof Error) figures.push(notTaken('content/', `not measured: ${content.message}`));
    else figures.push(...versionsFigures(content, VERSION_TARGETS.content));
    if (realMissing) return [...figures, notTaken('real tree', 'skipped: no real tree')];
    const real = await measureRealVersions(ws, PAIRS, 1_800_000, progress).catch((error: Error) => error);
    if (real instanceof Error) figures.push(notTaken('real tree', `not measured: ${real.message}`));
    else figures.push(...versionsFigures(real, VERSION_TARGETS.real));
    return figures;
  } finally {
    await ws.dispose();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pairs: { type: 'string', default: '2' }, only: { type: 'string' } } });
  const pairs = Number(values.pairs);
  const progress: Progress = (line) => void process.stderr.write(`· ${line}\n`);
  const ws = await createWorkspace();
  const figures: Figure[] = [];
  try {
    if (values.only !== 'real') {
      const content = await measureContentVersions(ws, pairs, 600_000, progress);
      figures.push(...versionsFigures(content, VERSION_TARGETS.content));
    }
    if (values.only !== 'content') {
      const real = await measureRealVersions(ws, pairs, 1_800_000, progress);
      figures.push(...versionsFigures(real, VERSION_TARGETS.real));
    }
  } finally {
    await ws.dispose();
  }
  console.log(formatTable(figures));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
