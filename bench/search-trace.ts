/**
 * Where a first search's time goes (bench/large-trees.ts times it): a built site is served and, for each
 * query, a fresh tab opens the page, "/" opens the search dialog and the query is typed at once under
 * Chromium's trace and V8's sampling profiler (which covers the search worker too). From the keydown of
 * the first letter to the first result drawn it prints the requests (start, end, bytes), each thread's
 * tasks (start, wall and CPU time, what ran in them) and the script functions that took each thread's time.
 *
 *   npx tsx bench/search-trace.ts --dist DIR [--route theme/default-theme-config/] [--queries plugin,deploy]
 */
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { armSearchTimer, hydrated, newContext, readBench, openSite } from './browser';
import { realTreeSource } from './real-tree';
import { loadAverage } from './report';
import type { TraceEvent } from './takeover';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8.execute',
  'v8',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
];

/** A trace event with the fields read here. */
interface Event extends TraceEvent {
  id?: string;
  args?: TraceEvent['args'] & {
    data?: NonNullable<TraceEvent['args']>['data'] & {
      requestId?: string;
      encodedDataLength?: number;
      decodedBodyLength?: number;
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
      startTime?: number;
    };
  };
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber?: number; columnNumber?: number };
}

async function main(): Promise<void> {
  const real = realTreeSource('');
  const { values } = parseArgs({
    options: {
      dist: { type: 'string' },
      route: { type: 'string', default: real.route },
      queries: { type: 'string', default: real.queries.join(',') },
    },
  });
  const { browser, url, close } = await openSite(values.dist, values.route);
  try {
    for (const query of values.queries.split(',')) await traceQuery(browser, url, query);
  } finally {
    await close();
  }
  console.log(`load average at the end: ${loadAverage()}`);
}

async function traceQuery(browser: Browser, url: string, query: string): Promise<void> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(url);
    await hydrated(page);
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.matches('.search-dialog input') ?? false);
    await armSearchTimer(page, query.charAt(0));
    await page.keyboard.type(query);
    const ms = await readBench(page);
    await page.waitForTimeout(200);
    const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: Event[] }).traceEvents;
    report(query, ms, events);
  } finally {
    await context.close();
  }
}

function report(query: string, drawnMs: number | null, events: Event[]): void {
  const keydowns = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  // The first keydown is "/", the second the query's first letter.
  const key = keydowns[1];
  if (!key || drawnMs === null) {
    console.log(`${query}: no result drawn`);
    return;
  }
  const from = key.ts;
  const to = from + drawnMs * 1000;
  const ms = (us: number) => (us / 1000).toFixed(1);
  console.log(`\n=== "${query}": first result drawn ${drawnMs.toFixed(1)} ms after the first key`);
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const finishes = new Map(events.filter((e) => e.name === 'ResourceFinish').map((e) => [e.args?.data?.requestId, e]));
  for (const send of events.filter((e) => e.name === 'ResourceSendRequest' && e.ts < to + 500_000)) {
    const done = finishes.get(send.args?.data?.requestId);
    const file = send.args?.data?.url?.split('/').slice(-2).join('/');
    const bytes = done?.args?.data?.encodedDataLength ?? 0;
    console.log(
      `  request +${ms(send.ts - from)} → ${done ? `+${ms(done.ts - from)}` : 'unfinished'} ms  ${file} ` +
        `(${(bytes / 1024).toFixed(1)} KB on the wire, ${((done?.args?.data?.decodedBodyLength ?? 0) / 1024).toFixed(1)} KB)`,
    );
  }
  const threads = new Set(events.filter((e) => e.name === 'RunTask').map((e) => `${e.pid}:${e.tid}`));
  for (const thread of threads) {
    const name = names.get(thread) ?? thread;
    if (!/CrRendererMain|DedicatedWorker/.test(name)) continue;
    const own = events.filter((e) => `${e.pid}:${e.tid}` === thread && e.ph === 'X');
    const tasks = own.filter((e) => e.name === 'RunTask' && e.ts + (e.dur ?? 0) > from - 50_000 && e.ts < to);
    const cpu = tasks.reduce((n, t) => n + (t.tdur ?? 0), 0);
    console.log(`  ${name}: ${tasks.length} tasks, CPU ${ms(cpu)} ms`);
    for (const task of tasks.filter((t) => (t.tdur ?? 0) >= 2000)) {
      const end = task.ts + (task.dur ?? 0);
      const inner = own
        .filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) >= 1000)
        .filter((e) => !/^(RunTask|ThreadControllerImpl|SimpleWatcher|Receive mojo)/.test(e.name))
        .slice(0, 10)
        .map((e) => `${e.name}${e.args?.data?.url ? `(${e.args.data.url.split('/').pop()})` : ''} ${ms(e.dur ?? 0)}`);
      console.log(
        `    +${ms(task.ts - from)} ms: ${ms(task.dur ?? 0)} (CPU ${ms(task.tdur ?? 0)}) ${inner.join(', ')}`,
      );
    }
    for (const [fn, self] of profileSelf(events, thread, from - 50_000, to).slice(0, 14)) {
      console.log(`      ${self.toFixed(1)} ms self  ${fn}`);
    }
  }
}

/** Self time by function from the trace's CPU profile chunks of one thread, within [from, to). */
function profileSelf(events: Event[], thread: string, from: number, to: number): [string, number][] {
  const profiles = events.filter((e) => `${e.pid}:${e.tid}` === thread && e.name === 'Profile');
  const totals = new Map<string, number>();
  for (const profile of profiles) {
    const nodes = new Map<number, ProfileNode>();
    let at = profile.args?.data?.startTime ?? 0;
    const chunks = events.filter((e) => e.name === 'ProfileChunk' && e.id === profile.id && e.pid === profile.pid);
    for (const chunk of chunks) {
      const data = chunk.args?.data;
      for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
      const samples = data?.cpuProfile?.samples ?? [];
      const deltas = data?.timeDeltas ?? [];
      samples.forEach((id, i) => {
        at += deltas[i] ?? 0;
        if (at < from || at >= to) return;
        const frame = nodes.get(id)?.callFrame;
        if (!frame || frame.functionName === '(idle)') return;
        const where = `${frame.functionName || '(anonymous)'} ${(frame.url ?? '').split('/').pop() ?? ''}:${frame.columnNumber ?? ''}`;
        totals.set(where, (totals.get(where) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
      });
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
