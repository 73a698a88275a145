/**
 * A vitest reporter that writes where a run's time goes: when each test file held a worker (from the
 * worker taking it to its end), which worker, the set-up before the first file, the share of the
 * workers' time left idle, and how busy the machine's cores were (every 10 s and over the run: a worker
 * holding a file may be waiting on a browser, a build or a server). Not part of `npm test`; `.ci/run`
 * adds it, and so can anyone looking at a run:
 *
 *   TEST_TIMELINE=timeline.json npx vitest run --reporter=default --reporter=./test/timeline-reporter.ts ...
 *
 * Vitest does not say which worker ran a file: a file goes to the first worker free, so the files are
 * dealt to the workers again in the order they were taken.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { Reporter, TestModule } from 'vitest/node';

interface FileSpan {
  project: string;
  file: string;
  worker: number;
  /** Seconds from the reporter's start: the worker took the file, its tests began, it ended. */
  taken: number;
  started: number;
  ended: number;
  /** Seconds importing the file and its modules, and running its tests and hooks (vitest's diagnostic). */
  collect: number;
  tests: number;
  state: string;
}

const seconds = (ms: number) => Math.round(ms) / 1000;

export default class TimelineReporter implements Reporter {
  private readonly origin = Date.now();
  private readonly taken = new Map<string, number>();
  private readonly started = new Map<string, number>();
  private readonly spans: Omit<FileSpan, 'worker'>[] = [];
  private readonly load: { at: number; load1: number; busyCores: number }[] = [];
  private readonly cpuStart = cpuTimes();
  private cpuLast = this.cpuStart;
  private runStart = 0;
  private readonly sampler = setInterval(() => this.sampleLoad(), 10_000);

  constructor() {
    this.sampler.unref();
    this.sampleLoad();
  }

  private now(): number {
    return Date.now() - this.origin;
  }

  private sampleLoad(): void {
    const now = cpuTimes();
    this.load.push({ at: seconds(this.now()), load1: loadavg()[0] ?? 0, busyCores: busyCores(this.cpuLast, now) });
    this.cpuLast = now;
  }

  onTestRunStart(): void {
    this.runStart = this.now();
  }

  onTestModuleQueued(module: TestModule): void {
    this.taken.set(module.id, this.now());
  }

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.id, this.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const ended = this.now();
    const diagnostic = module.diagnostic();
    this.spans.push({
      project: module.project.name,
      file: module.relativeModuleId,
      taken: seconds(this.taken.get(module.id) ?? ended),
      started: seconds(this.started.get(module.id) ?? ended),
      ended: seconds(ended),
      collect: seconds(diagnostic.collectDuration),
      tests: seconds(diagnostic.duration),
      state: module.state(),
    });
  }

  onTestRunEnd(): void {
    clearInterval(this.sampler);
    this.sampleLoad();
    const output = process.env['TEST_TIMELINE'];
    if (!output) return;
    const files = dealToWorkers(this.spans);
    const end = seconds(this.now());
    const firstTaken = Math.min(...files.map((file) => file.taken));
    const workers = Math.max(...files.map((file) => file.worker)) + 1;
    const busy = files.reduce((sum, file) => sum + (file.ended - file.taken), 0);
    const span = end - firstTaken;
    const summary = {
      runStart: seconds(this.runStart),
      firstFileTaken: firstTaken,
      end,
      workers,
      busyWorkerSeconds: Math.round(busy),
      idleShareOfWorkers: Math.round((1 - busy / (workers * span)) * 1000) / 1000,
      // The whole machine's, this run's and anything else's: read it beside the load average.
      busyCoresOnAverage: busyCores(this.cpuStart, cpuTimes()),
      cores: cpus().length,
    };
    writeFileSync(output, JSON.stringify({ summary, load: this.load, files }, null, 1));
    process.stdout.write(`timeline: ${JSON.stringify(summary)} -> ${output}\n`);
    // The files that held a worker longest, for a run whose JSON is not kept (CI prints only its output).
    const longest = [...files].sort((a, b) => b.ended - b.taken - (a.ended - a.taken)).slice(0, 12);
    const held = longest.map((file) => `${file.project} ${file.file} ${Math.round(file.ended - file.taken)} s`);
    process.stdout.write(`held a worker longest: ${held.join(', ')}\n`);
  }
}

/** Gives each file, in the order taken, to the worker that had been free the longest. */
function dealToWorkers(spans: Omit<FileSpan, 'worker'>[]): FileSpan[] {
  const freeAt: number[] = [];
  return [...spans]
    .sort((a, b) => a.taken - b.taken)
    .map((span) => {
      let worker = freeAt.findIndex((free) => free <= span.taken + 0.5);
      if (worker === -1) worker = freeAt.length;
      freeAt[worker] = span.ended;
      return { ...span, worker };
    });
}

/** The machine's CPU time so far, in ms: all of it, and the part spent idle. */
function cpuTimes(): { total: number; idle: number } {
  let total = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    total += times.user + times.nice + times.sys + times.irq + times.idle;
    idle += times.idle;
  }
  return { total, idle };
}

/** How many cores were busy on average between two readings of `cpuTimes`. */
function busyCores(from: { total: number; idle: number }, to: { total: number; idle: number }): number {
  const total = to.total - from.total;
  if (total <= 0) return 0;
  return Math.round((1 - (to.idle - from.idle) / total) * cpus().length * 100) / 100;
}
