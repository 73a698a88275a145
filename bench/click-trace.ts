/**
 * Where a click's time goes (bench/clicks.ts times it): a built site is served, a fresh tab opens a page and,
 * once the app has taken it over, clicks sidebar links in a row under Chromium's trace. For each click, from
 * the click event to the frame that shows the new heading, it prints the wall time, the main thread's CPU
 * time over that span (a busy machine's wall time includes the time other processes held the core), and
 * the work that took it, by kind and by script.
 *
 *   npx tsx bench/click-trace.ts --dist DIR [--route limits/] [--clicks 10] [--cpu 1] [--tabs 1]
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { hydrated, newContext } from './browser';
import { median } from './builds';
import { clickTargets, timedClick } from './clicks';
import { loadAverage } from './report';
import type { TraceEvent } from './takeover';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8.execute',
  'blink.user_timing',
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
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string' },
      route: { type: 'string', default: 'limits/' },
      clicks: { type: 'string', default: '10' },
      cpu: { type: 'string', default: '1' },
      tabs: { type: 'string', default: '1' },
    },
  });
  if (!values.dist) throw new Error('--dist DIR: a built site');
  const server = createSiteServer({ distDir: values.dist });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/${values.route}`;
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  console.log(`load average at the start: ${loadAverage()}`);
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
      const targets = await clickTargets(page, values.dist, Number(values.clicks));
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await browser.startTracing(page, { categories: CATEGORIES });
      const walls: { to: string; ms: number | null }[] = [];
      for (const { href, heading } of targets) {
        await page.evaluate(() => performance.mark('click-armed'));
        walls.push({ to: href, ms: await timedClick(page, href, heading) });
      }
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
      all.push(...spans(trace.traceEvents, walls));
      const { profile } = await cdp.send('Profiler.stop');
      for (const [fn, ms] of selfByFunction(profile)) functions.set(fn, (functions.get(fn) ?? 0) + ms);
      await context.close();
    }
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
  for (const [i, click] of all.entries()) {
    const kinds = click.selfByKind
      .slice(0, 8)
      .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
      .join(', ');
    console.log(
      `${i + 1}. ${click.to}: wall ${click.wallMs?.toFixed(1) ?? '—'} ms, CPU ${click.cpuMs.toFixed(1)} ms ` +
        `in ${click.tasks} tasks; ${kinds}; layouts: ${click.layouts.join(', ')}`,
    );
  }
  const top = [...functions].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(`script self time over every click and the time between them (sampled):`);
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
      wallMs: wall.ms,
      cpuMs: cpu / 1000,
      tasks: tasks.length,
      selfByKind: [...selfTimes(inSpan)].sort((a, b) => b[1] - a[1]),
      layouts: inSpan
        .filter((e) => e.name === 'Layout')
        .map((e) => `${((e.dur ?? 0) / 1000).toFixed(1)}${forcedBy(e, inSpan)}`),
    };
  });
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
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time by function of a sampled CPU profile, in ms. */
function selfByFunction(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}:${frame.columnNumber}`;
    totals.set(key, (totals.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
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
