/**
 * The app's takeover as the main thread feels it: every task Chromium's trace records on the page's main
 * thread from the first contentful paint until a while after the app has hydrated, unthrottled and with the
 * CPU slowed down (CDP Emulation.setCPUThrottlingRate). A task longer than 50 ms is one a reader's tap waits
 * behind. Each task's CPU time is kept beside its wall time: on a busy machine a task's wall time includes
 * the time other processes had the core, its CPU time does not.
 */
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { newContext } from './browser';
import { median } from './builds';
import type { Figure } from './report';

export const TAKEOVER_ROUTES = ['', 'limits/', 'api/rest/'];
/** The longest task after the first paint this may take, unthrottled. */
export const LONG_TASK_MS = 50;
/** How long after hydration the trace goes on: the idle work the app leaves for later happens in it. */
const AFTER_HYDRATION_MS = 3000;
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'toplevel', 'v8.execute'];

/** One task of the main thread, as the trace recorded it. */
export interface MainTask {
  /** From the first contentful paint to the task's start. */
  atMs: number;
  /** Its part after the first contentful paint, as Lighthouse counts a task that the paint falls in. */
  wallMs: number;
  cpuMs: number;
  /** What took most of it: script evaluation, a function call, microtasks (hydration), style, layout. */
  mostly: string;
}

export interface TakeoverRun {
  route: string;
  cpuSlowdown: number;
  /** The longest task (by wall time) that ended after the first contentful paint. */
  longest: MainTask | null;
  /** The longest by CPU time. */
  longestCpu: MainTask | null;
  /** Tasks over LONG_TASK_MS (wall). */
  overLimit: number;
}

/** An event of a Chromium trace, as far as the benches read it. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; type?: string; functionName?: string } };
}

/** Traces `runs` first visits of each route at each CPU slowdown, each in a fresh context (cold cache). */
export async function measureTakeover(
  distDir: string,
  { routes = TAKEOVER_ROUTES, runs = 5, slowdowns = [1, 4] } = {},
): Promise<TakeoverRun[]> {
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  try {
    const results: TakeoverRun[] = [];
    for (const cpuSlowdown of slowdowns) {
      for (const route of routes) {
        for (let run = 0; run < runs; run++) results.push(await traceVisit(browser, base, route, cpuSlowdown));
      }
    }
    return results;
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function traceVisit(browser: Browser, base: string, route: string, cpuSlowdown: number): Promise<TakeoverRun> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(base + route, { waitUntil: 'load' });
    await untilHydrated((expression) => cdp.send('Runtime.evaluate', { expression, returnByValue: true }));
    await page.waitForTimeout(AFTER_HYDRATION_MS);
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    return { route, cpuSlowdown, ...tasksAfterFirstPaint(trace.traceEvents) };
  } finally {
    await context.close();
  }
}

/**
 * Waits for the app to have taken the page over, asking with a one-line expression: Playwright's own
 * waiting (waitForFunction) first evaluates its injected script in the page, a main-thread task of tens of
 * milliseconds that the trace would count as the page's.
 */
async function untilHydrated(evaluate: (expression: string) => Promise<{ result: { value?: unknown } }>) {
  // Generous: a slowed-down CPU on a busy machine takes its time.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { result } = await evaluate("document.documentElement.dataset.hydrated === 'true'");
    if (result.value === true) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the app did not take the page over within 60 s');
}

/** The page's main-thread tasks that ended after its first contentful paint, the longest of them. */
export function tasksAfterFirstPaint(events: TraceEvent[]): Omit<TakeoverRun, 'route' | 'cpuSlowdown'> {
  const paint = events.find((e) => e.name === 'firstContentfulPaint');
  if (!paint) throw new Error('the trace has no first contentful paint');
  const thread = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === paint.pid && e.args?.name === 'CrRendererMain',
  );
  const tid = thread?.tid ?? paint.tid;
  const onMain = events.filter((e) => e.pid === paint.pid && e.tid === tid && e.ph === 'X');
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ts + (e.dur ?? 0) > paint.ts);
  const after = (task: TraceEvent) => task.ts + (task.dur ?? 0) - Math.max(task.ts, paint.ts);
  const describe = (task: TraceEvent): MainTask => ({
    atMs: (task.ts - paint.ts) / 1000,
    wallMs: after(task) / 1000,
    cpuMs: (task.tdur ?? 0) / 1000,
    mostly: mostlyIn(task, onMain),
  });
  const longestBy = (length: (task: TraceEvent) => number) =>
    tasks.reduce<TraceEvent | undefined>((best, t) => (length(t) > (best ? length(best) : -1) ? t : best), undefined);
  const wall = longestBy(after);
  const cpu = longestBy((task) => task.tdur ?? 0);
  return {
    longest: wall ? describe(wall) : null,
    longestCpu: cpu ? describe(cpu) : null,
    overLimit: tasks.filter((t) => after(t) / 1000 > LONG_TASK_MS).length,
  };
}

const KINDS: Record<string, string> = {
  'v8.evaluateModule': 'module evaluation',
  EvaluateScript: 'script evaluation',
  FunctionCall: 'function call',
  RunMicrotasks: 'microtasks',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  ParseHTML: 'HTML parsing',
  Paint: 'paint',
  PrePaint: 'paint',
  FireIdleCallback: 'idle callback',
  TimerFire: 'timer',
};

/** The kind of work that took most of a task, with the script it ran in when there is one. */
function mostlyIn(task: TraceEvent, onMain: TraceEvent[]): string {
  const end = task.ts + (task.dur ?? 0);
  let best: TraceEvent | undefined;
  for (const e of onMain) {
    if (e.ts < task.ts || e.ts + (e.dur ?? 0) > end || !KINDS[e.name]) continue;
    if ((e.dur ?? 0) > (best?.dur ?? 0)) best = e;
  }
  if (!best) return 'other';
  const script = best.args?.data?.url?.split('/').pop();
  return script ? `${KINDS[best.name]} (${script})` : (KINDS[best.name] ?? best.name);
}

export function takeoverFigures(runs: TakeoverRun[], loadAverage: string): Figure[] {
  const figures: Figure[] = [];
  const groups = new Map<string, TakeoverRun[]>();
  for (const run of runs) {
    const key = `${run.cpuSlowdown}\0${run.route}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  for (const group of groups.values()) {
    const { route, cpuSlowdown } = group[0]!;
    const measured = group.filter((r) => r.longest);
    const walls = measured.map((r) => r.longest!.wallMs);
    const cpus = measured.map((r) => r.longestCpu!.cpuMs);
    const worst = measured.reduce<TakeoverRun | undefined>(
      (w, r) => (r.longest!.wallMs > (w?.longest?.wallMs ?? -1) ? r : w),
      undefined,
    );
    const throttle = cpuSlowdown > 1 ? `, CPU ${cpuSlowdown}× slower` : ', unthrottled';
    figures.push({
      section: 'Takeover',
      name: `/docs/${route} longest task after first paint${throttle} (median of ${measured.length})`,
      value: walls.length ? median(walls) : null,
      unit: 'ms',
      ...(cpuSlowdown === 1 ? { target: { max: LONG_TASK_MS, inclusive: true } } : {}),
      note: worst?.longest
        ? `worst ${worst.longest.wallMs.toFixed(0)} ms (${worst.longest.mostly}, CPU ${worst.longest.cpuMs.toFixed(0)} ms); ` +
          `longest by CPU time: median ${median(cpus).toFixed(0)} ms; load ${loadAverage}`
        : 'not measured',
    });
  }
  return figures;
}
