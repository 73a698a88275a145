/**
 * Build figures: each build runs in its own child process (bench/build-once.ts) so its peak memory is
 * its own. A build that runs past the bench's time cap is stopped and reported as a lower bound.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compile, compiledFile, projectRootOf } from '../src/node/compiled';
import { RESULT_PREFIX, STARTED_LINE, type BuildMeasurement, type BuildOnceReport } from './build-protocol';
import { MB, type Figure } from './report';

export const projectRoot = projectRootOf(import.meta.url);

/** Temporary folders for one bench run; everything is removed by `dispose`. */
export interface Workspace {
  /** Outputs and copies of content trees, under the system temp folder. */
  root: string;
  /** Build caches. They live under the project's node_modules/.cache because the build's prerender
   * bundle, written there, must resolve the project's packages. */
  cacheRoot: string;
  dispose(): Promise<void>;
}

export async function createWorkspace(): Promise<Workspace> {
  const root = await mkdtemp(path.join(tmpdir(), 'docs-bench-'));
  const cacheParent = path.join(projectRoot, 'node_modules/.cache');
  await mkdir(cacheParent, { recursive: true });
  const cacheRoot = await mkdtemp(path.join(cacheParent, 'docs-bench-'));
  return {
    root,
    cacheRoot,
    dispose: async () => {
      await rm(root, { recursive: true, force: true });
      await rm(cacheRoot, { recursive: true, force: true });
    },
  };
}

/** One site build's folders inside the workspace. */
export interface BuildPaths {
  content: string;
  out: string;
  manifest: string;
  cache: string;
  /** False: content problems are warnings (`--no-strict`), as for a tree with broken links. */
  strict?: boolean;
}

export function buildPaths(ws: Workspace, name: string, content: string, cacheName = name): BuildPaths {
  return {
    content,
    out: path.join(ws.root, name, 'dist'),
    manifest: path.join(ws.root, name, 'manifest'),
    cache: path.join(ws.cacheRoot, cacheName),
  };
}

/** Copies a content tree into the workspace, so the bench never writes into (or races with) the original. */
export async function snapshotTree(ws: Workspace, from: string, name: string): Promise<string> {
  const to = path.join(ws.root, name, 'content');
  await cp(from, to, { recursive: true });
  return to;
}

export interface ChildOutcome {
  code: number | null;
  stdout: string;
  /** Set when the child was stopped at the time cap: what was known at that moment. */
  stopped?: { afterMs: number | null; peakRssBytes: number | null; capMs: number };
  /** Why the child failed, in a line or three, when it did. */
  error?: string;
}

/** Peak resident memory of a running process so far (VmHWM), from /proc; null where /proc is missing. */
async function peakRss(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

/** Runs a child Node process (`node` followed by `nodeArgs`, then `args`); stops it (SIGKILL) after `timeoutMs`. */
export function runChild(nodeArgs: string[], args: string[], timeoutMs: number): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let peak: number | null = null;
    let started: number | undefined;
    let stopped: ChildOutcome['stopped'];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (started === undefined && stdout.includes(STARTED_LINE)) started = performance.now();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const poll = setInterval(() => {
      if (child.pid !== undefined) void peakRss(child.pid).then((bytes) => (peak = bytes ?? peak));
    }, 250);
    const timer = setTimeout(() => {
      void (async () => {
        if (child.pid !== undefined) peak = (await peakRss(child.pid)) ?? peak;
        stopped = {
          afterMs: started === undefined ? null : performance.now() - started,
          peakRssBytes: peak,
          capMs: timeoutMs,
        };
        child.kill('SIGKILL');
      })();
    }, timeoutMs);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      const outcome: ChildOutcome = { code, stdout };
      if (stopped) outcome.stopped = stopped;
      else if (code !== 0) {
        const lines = stderr.split('\n').filter((l) => l.trim() && !/^npm warn/.test(l));
        outcome.error = `${path.basename(nodeArgs.at(-1) ?? 'node')} exited with code ${code}: ${lines.slice(0, 3).join(' ').slice(0, 300)}`;
      }
      resolve(outcome);
    });
  });
}

function buildArgs(paths: BuildPaths): string[] {
  const args = ['--content', paths.content, '--out', paths.out, '--manifest', paths.manifest, '--cache', paths.cache];
  return paths.strict === false ? [...args, '--no-strict'] : args;
}

export interface BuildOutcome {
  report?: BuildOnceReport;
  stopped?: ChildOutcome['stopped'];
  error?: string;
}

/**
 * bench/build-once.ts in a fresh child process, with its report parsed. It runs compiled, as `npm run build`
 * does (compiled first when a source changed).
 */
export async function buildInChild(args: string[], timeoutMs: number): Promise<BuildOutcome> {
  await compile(projectRoot);
  const outcome = await runChild([compiledFile(projectRoot, 'bench-build-once')], args, timeoutMs);
  if (outcome.stopped) return { stopped: outcome.stopped };
  if (outcome.error) return { error: outcome.error };
  const line = outcome.stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (!line) return { error: 'build-once.ts printed no result' };
  return { report: JSON.parse(line.slice(RESULT_PREFIX.length)) as BuildOnceReport };
}

export type CompileMeasurement = { wallMs: number } | { error: string };

/**
 * `npm run compile` with nothing compiled yet, as a writer's first `npm run build` runs it (tsx starting,
 * then esbuild for the commands and the app's bundles): the compiled files and the kept bundles are
 * removed first, and the command runs in a child process.
 */
export async function compileFromNothing(timeoutMs: number): Promise<CompileMeasurement> {
  await rm(path.dirname(compiledFile(projectRoot, 'build')), { recursive: true, force: true });
  await rm(path.join(projectRoot, 'node_modules/.cache/docs-app'), { recursive: true, force: true });
  const started = performance.now();
  const outcome = await runChild([], [path.join(projectRoot, 'scripts/compile.mjs')], timeoutMs);
  if (outcome.stopped) return { error: `stopped at the ${seconds(timeoutMs)} s cap` };
  if (outcome.error) return { error: outcome.error };
  return { wallMs: performance.now() - started };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)}`;

export interface BuildSeries {
  label: string;
  runs: BuildMeasurement[];
  stopped?: ChildOutcome['stopped'];
  error?: string;
}

/** Runs `count` builds, each in a fresh child; `prepare` runs before each (e.g. to empty the cache). */
export async function buildSeries(
  label: string,
  count: number,
  paths: (run: number) => BuildPaths,
  timeoutMs: number,
  prepare?: (run: number) => Promise<void>,
): Promise<BuildSeries> {
  const runs: BuildMeasurement[] = [];
  for (let i = 0; i < count; i++) {
    await prepare?.(i);
    const outcome = await buildInChild(buildArgs(paths(i)), timeoutMs);
    if (outcome.stopped) return { label, runs, stopped: outcome.stopped };
    if (outcome.error) return { label, runs, error: outcome.error };
    const build = outcome.report?.builds[0];
    if (!build?.ok) return { label, runs, error: `build failed: ${build?.diagnostics.join('; ') ?? 'no report'}` };
    runs.push(build);
  }
  return { label, runs };
}

export interface BuildTargets {
  wallMs?: number;
  peakBytes?: number;
}

/** Wall, CPU and peak memory figures of a series (medians when there are several runs). */
export function seriesFigures(series: BuildSeries, targets: BuildTargets): Figure[] {
  const section = 'Build';
  const name = (what: string) => `${series.label}: ${what}`;
  const wallTarget = targets.wallMs === undefined ? {} : { target: { max: targets.wallMs } };
  const peakTarget = targets.peakBytes === undefined ? {} : { target: { max: targets.peakBytes } };
  if (series.stopped) {
    const note = `stopped at the bench's ${seconds(series.stopped.capMs)} s cap (set BENCH_BUILD_CAP_SECONDS to wait longer)`;
    return [
      {
        section,
        name: name('wall'),
        value: series.stopped.afterMs,
        atLeast: series.stopped.afterMs !== null,
        unit: 'ms',
        note,
        ...wallTarget,
      },
      { section, name: name('CPU'), value: null, unit: 'ms', note: 'not measured: the build was stopped' },
      {
        section,
        name: name('peak memory'),
        value: series.stopped.peakRssBytes,
        atLeast: series.stopped.peakRssBytes !== null,
        unit: 'bytes',
        note: 'peak RSS until it was stopped (/proc VmHWM)',
        ...peakTarget,
      },
    ];
  }
  if (series.error || series.runs.length === 0) {
    const note = `not measured: ${series.error ?? 'no run'}`;
    return [
      { section, name: name('wall'), value: null, unit: 'ms', note, ...wallTarget },
      { section, name: name('CPU'), value: null, unit: 'ms' },
      { section, name: name('peak memory'), value: null, unit: 'bytes', ...peakTarget },
    ];
  }
  const runs = series.runs;
  const many = runs.length > 1;
  const of = (values: number[], fmt: (v: number) => string) =>
    many ? `median of ${values.length}: ${values.map(fmt).join(' / ')}` : '';
  const walls = runs.map((r) => r.wallMs);
  const cpus = runs.map((r) => r.cpuMs);
  const helpers = runs.map((r) => r.helperCpuMs).filter((v): v is number => v !== null);
  const peaks = runs.map((r) => r.maxRssBytes);
  const helperNote = helpers.length ? `; esbuild service +${seconds(median(helpers))} s` : '';
  return [
    { section, name: name('wall'), value: median(walls), unit: 'ms', note: of(walls, seconds), ...wallTarget },
    {
      section,
      name: name('CPU'),
      value: median(cpus),
      unit: 'ms',
      note: `node process (user + system)${helperNote}${many ? `; ${of(cpus, seconds)}` : ''}`,
    },
    {
      section,
      name: name('peak memory'),
      value: median(peaks),
      unit: 'bytes',
      note: `child's maxRSS${many ? `; ${of(peaks, (v) => `${Math.round(v / MB)}`)} MB` : ''}`,
      ...peakTarget,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Rebuild after one page changed: a slot, so the incremental dev builder can plug its own measurement in.

export interface RebuildContext {
  ws: Workspace;
  /** A private copy of the content tree, built once already with its cache in `paths.cache`. */
  paths: BuildPaths;
  /** The page file to edit, inside `paths.content`. */
  page: string;
  timeoutMs: number;
}

export interface RebuildOutcome {
  /** Milliseconds from the edit being saved to the site being up to date, one per edit. */
  samplesMs: number[];
  /** More about the samples, printed after them. */
  note?: string;
  error?: string;
}

export interface RebuildOnePage {
  /** What is measured, as printed in the table. */
  label: string;
  measure: (context: RebuildContext) => Promise<RebuildOutcome>;
}

/** For now: a full build after appending to one page, in a process that has built the site once. */
export const fullRebuildAfterEdit: RebuildOnePage = {
  label: 'full rebuild (one page edited)',
  measure: async ({ paths, page, timeoutMs }) => {
    const outcome = await buildInChild([...buildArgs(paths), '--edit', page, '--repeat', '3'], timeoutMs);
    if (outcome.stopped) return { samplesMs: [], error: `stopped at the ${seconds(timeoutMs)} s cap` };
    if (outcome.error) return { samplesMs: [], error: outcome.error };
    const builds = outcome.report?.builds ?? [];
    const failed = builds.find((b) => !b.ok);
    if (failed) return { samplesMs: [], error: `build failed: ${failed.diagnostics.join('; ')}` };
    return { samplesMs: builds.map((b) => b.wallMs) };
  },
};

const EDITS = 5;

/**
 * `npm run dev`'s incremental rebuild, end to end: the dev session (watcher, builder, server) runs on a
 * copy of the tree, Chromium shows the page, and each sample is the time from the file being written to
 * the page's new text being in the DOM (a MutationObserver in the page notes the moment; both clocks are
 * this machine's wall clock). The rebuild alone (save → output written, watcher latency included) is in
 * the note. The edits are a couple of seconds apart, as a writer's saves are, so the deferred search-data
 * update runs between them.
 */
export const devRebuildAfterEdit: RebuildOnePage = {
  label: 'dev rebuild (one page edited, save → browser shows it)',
  measure: async ({ ws, paths, page, timeoutMs }) => {
    const { startDevSession } = await import('../src/node/dev/session');
    const { routeFromRelativePath } = await import('../src/shared/paths');
    const { chromium } = await import('playwright-core');
    const { CHROMIUM_ARGS, ensureChromium } = await import('../test/e2e/chromium');
    const session = await startDevSession({
      contentDir: paths.content,
      srcDir: path.join(projectRoot, 'src'),
      cacheDir: paths.cache,
      outDir: path.join(ws.root, 'dev-out'),
      port: 0,
    });
    const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
    const rebuilds: number[] = [];
    const samplesMs: number[] = [];
    let savedAt = 0;
    session.onRebuild((result, trigger) => {
      if (trigger === 'content' && result.written.length > 0) rebuilds.push(Date.now() - savedAt);
    });
    const run = async () => {
      const tab = await browser.newPage();
      const route = routeFromRelativePath(path.relative(paths.content, page).split(path.sep).join('/'));
      await tab.goto(`${session.url}${route.slice(1)}`);
      await tab.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
      for (let i = 0; i < EDITS; i++) {
        const marker = `Bench edit ${i} ${Date.now()}.`;
        await tab.evaluate((text) => {
          const w = window as unknown as { benchSeenAt?: number };
          delete w.benchSeenAt;
          const observer = new MutationObserver(() => {
            if (document.getElementById('page-content')?.textContent?.includes(text)) {
              w.benchSeenAt = Date.now();
              observer.disconnect();
            }
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        }, marker);
        const text = await readFile(page, 'utf8');
        savedAt = Date.now();
        await writeFile(page, `${text}\n${marker}\n`);
        await tab.waitForFunction(() => (window as unknown as { benchSeenAt?: number }).benchSeenAt !== undefined);
        const seenAt = await tab.evaluate(() => (window as unknown as { benchSeenAt: number }).benchSeenAt);
        samplesMs.push(seenAt - savedAt);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        run(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`stopped at the ${seconds(timeoutMs)} s cap`)), timeoutMs);
        }),
      ]);
      const note = `rebuild alone (save → written): ${rebuilds.map((r) => `${Math.round(r)}`).join(' / ')} ms`;
      return { samplesMs, note };
    } catch (error) {
      return { samplesMs: [], error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
      await browser.close();
      await session.close();
    }
  },
};

export function rebuildFigure(slot: RebuildOnePage, outcome: RebuildOutcome, targetMs: number): Figure {
  const samples = outcome.samplesMs;
  return {
    section: 'Build',
    name: `content/ ${slot.label}`,
    value: samples.length ? median(samples) : null,
    unit: 'ms',
    target: { max: targetMs },
    note: outcome.error
      ? `not measured: ${outcome.error}`
      : `median of ${samples.length}: ${samples.map((s) => `${Math.round(s)}`).join(' / ')} ms${outcome.note ? `; ${outcome.note}` : ''}`,
  };
}
