/**
 * Where a click's time goes (bench/clicks.ts times it): a built site is served, a fresh tab opens a page and,
 * once the app has taken it over, clicks sidebar links in a row under Chromium's trace. For each click, from
 * the click event to the frame that shows the new heading, it prints the wall time, the main thread's CPU
 * time over that span (a busy machine's wall time includes the time other processes held the core), and
 * the work that took it, by kind and by script.
 *
 *   npx tsx bench/click-trace.ts --dist DIR [--route limits/] [--clicks 10] [--cpu 1] [--tabs 1]
 */
import { parseArgs } from 'node:util';
import { hydrated, newContext, openSite } from './browser';
import { median } from './builds';
import { CLICK_OPTIONS, clickTargets, timedClick } from './clicks';
import { loadAverage } from './report';
import type { TraceEvent } from './takeover';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8.execute',
  'blink.user_timing',
  'disabled-by-default-devtools.timeline.stack',
];

/** Work of one kind, its self time summed: the time inside it that no nested event accounts for. */
interface ClickTrace {
  to: string;
  wallMs: number | null;
  cpuMs: number;
  /** The main thread's tasks in the span, with their wall and CPU time. */
  tasks: number;
  selfByKind: [string, number][];
  /** Each layout in the span, in ms, with what forced it (the script's function) when script did. */
  layouts: string[];
  /** The click event's time on the trace's clock, in µs. */
  fromUs: number;
  /** The main thread's tasks of the span in order: start after the click, wall and CPU, what ran in them. */
  timeline: string[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ...CLICK_OPTIONS,
      cpu: { type: 'string', default: '1' },
      tabs: { type: 'string', default: '1' },
      timeline: { type: 'boolean', default: false },
    },
  });
  const { browser, url, dist, close } = await openSite(values.dist, values.route);
  const all: ClickTrace[] = [];
  const functions = new Map<string, number>();
  try {
    for (let tab = 0; tab < Number(values.tabs); tab++) {
      const context = await newContext(browser);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      if (Number(values.cpu) > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.cpu) });
      await page.goto(url);
      await hydrated(page);
      const targets = await clickTargets(page, dist, Number(values.clicks));
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await browser.startTracing(page, { categories: CATEGORIES });
      const walls: { to: string; ms: number | null }[] = [];
      for (const { href, heading } of targets) {
        await page.evaluate(() => performance.mark('click-armed'));
        walls.push({ to: href, ms: await timedClick(page, href, heading, Number(values.hover)) });
      }
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
      const clicks = spans(trace.traceEvents, walls);
      all.push(...clicks);
      const { profile } = await cdp.send('Profiler.stop');
      const within = clicks.map((c) => [c.fromUs, c.fromUs + (c.wallMs ?? 0) * 1000] as const);
      for (const [fn, ms] of totalByFunction(profile, within)) functions.set(fn, (functions.get(fn) ?? 0) + ms);
      await context.close();
    }
  } finally {
    await close();
  }
  for (const [i, click] of all.entries()) {
    const kinds = click.selfByKind
      .slice(0, 8)
      .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
      .join(', ');
    if (values.timeline) console.log(click.timeline.map((line) => `    ${line}`).join('\n'));
    console.log(
      `${i + 1}. ${click.to}: wall ${click.wallMs?.toFixed(1) ?? '—'} ms, CPU ${click.cpuMs.toFixed(1)} ms ` +
        `in ${click.tasks} tasks; ${kinds}; layouts: ${click.layouts.join(', ')}`,
    );
  }
  const top = [...functions].sort((a, b) => b[1] - a[1]).slice(0, 45);
  console.log(`time by function within the clicks, callees included (sampled):`);
  for (const [fn, ms] of top) console.log(`  ${ms.toFixed(1)} ms  ${fn}`);
  const walls = all.map((c) => c.wallMs).filter((ms): ms is number => ms !== null);
  console.log(
    `median wall ${median(walls).toFixed(1)} ms (worst ${Math.max(...walls).toFixed(1)}), ` +
      `median CPU ${median(all.map((c) => c.cpuMs)).toFixed(1)} ms; load average at the end: ${loadAverage()}`,
  );
}

/** Each click's span in the trace: from its click event, as long as the page timed it. */
function spans(events: TraceEvent[], walls: { to: string; ms: number | null }[]): ClickTrace[] {
  const clicks = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click');
  const first = clicks[0];
  if (!first || clicks.length < walls.length) throw new Error(`the trace has ${clicks.length} clicks`);
  const onMain = events.filter((e) => e.pid === first.pid && e.tid === first.tid && e.ph === 'X');
  // The page's own clicks only: one per timed click, in order (a click the page dispatched itself is not here).
  return walls.map((wall, i) => {
    const click = clicks[i]!;
    const from = click.ts;
    const to = from + (wall.ms ?? 0) * 1000;
    const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ts + (e.dur ?? 0) > from && e.ts < to);
    const cpu = tasks.reduce((n, t) => n + (t.tdur ?? 0) * overlap(t, from, to), 0);
    const inSpan = onMain.filter((e) => e.ts >= from && e.ts < to && e.name !== 'RunTask');
    return {
      to: wall.to,
      fromUs: from,
      wallMs: wall.ms,
      cpuMs: cpu / 1000,
      tasks: tasks.length,
      selfByKind: [...selfTimes(inSpan)].sort((a, b) => b[1] - a[1]),
      layouts: inSpan
        .filter((e) => e.name === 'Layout')
        .map((e) => `${((e.dur ?? 0) / 1000).toFixed(1)}${forcedBy(e, inSpan)}`),
      timeline: tasks.filter((t) => (t.dur ?? 0) >= 300).map((t) => taskLine(t, from, onMain)),
    };
  });
}

/** What a task did, in a line: its start after the click, its wall and CPU time, its main parts. */
function taskLine(task: TraceEvent, from: number, events: TraceEvent[]): string {
  const end = task.ts + (task.dur ?? 0);
  const inner = events.filter(
    (e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) >= 300,
  );
  const parts = inner
    .filter((e) => !/^(RunTask|ThreadControllerImpl|SimpleWatcher|Receive mojo|V8\.)/.test(e.name))
    .slice(0, 14)
    .map((e) => {
      const data = e.args?.data;
      const stack = (e.args as { beginData?: { stackTrace?: { functionName: string }[] } } | undefined)?.beginData
        ?.stackTrace;
      const what =
        data?.functionName ||
        data?.type ||
        data?.url?.split('/').pop() ||
        (stack
          ? `from ${stack
              .slice(0, 4)
              .map((f) => f.functionName || '?')
              .join(' < ')}`
          : '');
      return `${e.name}${what ? `(${what})` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`;
    });
  const ms = (us: number) => (us / 1000).toFixed(1);
  return `+${ms(task.ts - from)} ms: ${ms(task.dur ?? 0)} (CPU ${ms(task.tdur ?? 0)}) ${parts.join(', ')}`;
}

/** The script function a layout ran inside of (a forced layout), as " (in f)"; empty when none. */
function forcedBy(layout: TraceEvent, events: TraceEvent[]): string {
  const outer = events.find(
    (e) => e.name === 'FunctionCall' && e.ts <= layout.ts && e.ts + (e.dur ?? 0) >= layout.ts + (layout.dur ?? 0),
  );
  return outer ? ` (in ${outer.args?.data?.functionName || 'script'})` : '';
}

/** The parts of CDP's Profiler.Profile read here. */
interface CpuProfile {
  startTime: number;
  nodes: {
    id: number;
    children?: number[];
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }[];
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Time by function of a sampled CPU profile within the clicks' spans, in ms: each function counts the
 * samples it is on the stack of (once per sample, however deep it recurses), so callers include callees.
 */
function totalByFunction(profile: CpuProfile, within: (readonly [number, number])[]): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  const deltas = profile.timeDeltas ?? [];
  let at = profile.startTime;
  (profile.samples ?? []).forEach((id, i) => {
    at += deltas[i] ?? 0;
    if (!within.some(([from, to]) => at >= from && at < to)) return;
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const frame = byId.get(node)?.callFrame;
      if (!frame) break;
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}:${frame.columnNumber}`;
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + ms);
    }
  });
  return totals;
}

/** The share of a task's time inside [from, to). */
function overlap(task: TraceEvent, from: number, to: number): number {
  const dur = task.dur ?? 0;
  if (dur === 0) return 0;
  return (Math.min(task.ts + dur, to) - Math.max(task.ts, from)) / dur;
}

/** Self time by event name (with the script's file for script work), from properly nested X events. */
function selfTimes(events: TraceEvent[]): Map<string, number> {
  const sorted = [...events].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const totals = new Map<string, number>();
  const stack: { end: number; key: string; self: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack[stack.length - 1]!.end <= until) {
      const done = stack.pop()!;
      totals.set(done.key, (totals.get(done.key) ?? 0) + done.self / 1000);
    }
  };
  for (const e of sorted) {
    close(e.ts);
    const dur = e.dur ?? 0;
    const parent = stack[stack.length - 1];
    if (parent) parent.self -= dur;
    const script = e.args?.data?.url?.split('/').pop();
    const fn = e.args?.data?.functionName;
    stack.push({ end: e.ts + dur, key: script ? `${e.name}(${script}${fn ? ` ${fn}` : ''})` : e.name, self: dur });
  }
  close(Infinity);
  return totals;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
