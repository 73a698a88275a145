/**
 * Runs the real build in this process and reports what it cost, as one JSON line on stdout prefixed with
 * RESULT_PREFIX. Run in a child process so each build's peak memory is its own:
 *
 *   node node_modules/.cache/docs-node/bench-build-once.mjs --content <dir> --out <dir> --manifest <dir> --cache <dir>
 *        [--edit <file inside content> --repeat <n>] [--no-strict]
 *
 * With --edit, the first build only warms the process up (as a running dev server would be); then the
 * file is edited and the site rebuilt, `repeat` times, and those rebuilds are what is reported.
 */
import { appendFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build, type BuildResult } from '../src/node/build';
import { projectRootOf } from '../src/node/compiled';
import { formatDiagnostic } from '../src/node/diagnostics';
import { RESULT_PREFIX, STARTED_LINE, type BuildMeasurement, type BuildOnceReport } from './build-protocol';

const projectRoot = projectRootOf(import.meta.url);

/** CPU seconds of this process's child processes, from /proc (Linux only; null elsewhere). */
async function childCpuMs(): Promise<number | null> {
  try {
    const tasks = await readdir('/proc/self/task');
    const pids = new Set<string>();
    for (const task of tasks) {
      const text = await readFile(`/proc/self/task/${task}/children`, 'utf8').catch(() => '');
      for (const pid of text.split(/\s+/)) if (pid) pids.add(pid);
    }
    let ticks = 0;
    for (const pid of pids) {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      // Fields after the ")" that ends the command name: utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    }
    return (ticks / 100) * 1000; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

async function measured(run: () => Promise<BuildResult>): Promise<BuildMeasurement> {
  const helperBefore = await childCpuMs();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await run();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const helperAfter = await childCpuMs();
  return {
    ok: result.ok,
    pages: result.pages,
    diagnostics: result.diagnostics.slice(0, 5).map(formatDiagnostic),
    warnings: result.diagnostics.filter((d) => d.severity === 'warning').length,
    brokenLinks: result.diagnostics.filter((d) => /^broken (link|anchor)/.test(d.message)).length,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    helperCpuMs: helperBefore === null || helperAfter === null ? null : helperAfter - helperBefore,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      content: { type: 'string' },
      out: { type: 'string' },
      manifest: { type: 'string' },
      cache: { type: 'string' },
      edit: { type: 'string' },
      repeat: { type: 'string', default: '1' },
      'no-strict': { type: 'boolean', default: false },
    },
  });
  const { content, out, manifest, cache } = values;
  if (!content || !out || !manifest || !cache) {
    throw new Error('usage: build-once.ts --content <dir> --out <dir> --manifest <dir> --cache <dir> [--edit <file>]');
  }
  const once = () =>
    build({
      contentDir: content,
      outDir: out,
      manifestDir: manifest,
      cacheDir: cache,
      srcDir: path.join(projectRoot, 'src'),
      strict: !values['no-strict'],
    });

  const builds: BuildMeasurement[] = [];
  if (values.edit) {
    const warmUp = await once();
    if (!warmUp.ok) {
      // The parent shows a failed build's diagnostics, never its numbers.
      builds.push({ ...(await measured(async () => warmUp)), ok: false });
    } else {
      for (let i = 0; i < Number(values.repeat); i++) {
        await appendFile(values.edit, `\nEdited by the benchmark (${i + 1}): the page changed.\n`);
        builds.push(await measured(once));
      }
    }
  } else {
    process.stdout.write(`${STARTED_LINE}\n`);
    builds.push(await measured(once));
  }
  const report: BuildOnceReport = { builds };
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(report)}\n`);
}

main().then(
  // The esbuild service keeps the event loop alive; the report is written, so leave now.
  () => process.exit(0),
  (error: unknown) => {
    // The message first: the parent shows the first lines of stderr.
    console.error(error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : error);
    process.exit(1);
  },
);
