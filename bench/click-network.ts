/**
 * What a click's requests wait for (bench/clicks.ts times the click): a built site is served, a fresh tab
 * opens a page and, once the app has taken it over, clicks sidebar links in a row as the bench does. For
 * each click it prints every request the page made from the pointer's arrival on the link to the new page
 * painted, from CDP's Network events: when it was asked for after the click (negative: before it), its
 * priority as the browser first set it, its time queued in the browser before it went out on its socket,
 * the server's own view of it (the script serves the site, and notes when each request came in and when
 * its answer was handed to the socket), when its headers and its whole body came; and, from the page, when
 * script had each body, when the new content was put in and when its frame was painted. At the end, the
 * median of each of these steps for the clicked page's fragment. `--profile`: a browser with a profile on
 * disk, as a reader's is, rather than a fresh context.
 *
 *   npx tsx bench/click-network.ts --dist DIR [--route limits/] [--clicks 10] [--hover MS] [--profile]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { createSiteServer } from '../src/node/serve/server';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import { hydrated, newContext, VIEWPORT } from './browser';
import { median } from './builds';
import { CLICK_OPTIONS, clickTargets, timedClick } from './clicks';
import { loadAverage } from './report';

/** One request as CDP's Network events told it; times in ms on the wall clock (epoch). */
interface Request {
  url: string;
  kind: string;
  priority: string;
  askedAt: number;
  /** From Network.ResourceTiming: when it went out on its socket, and when its headers came back. */
  sentAt?: number;
  headersAt?: number;
  /** Whether a new connection was opened for it (none is when an idle one was reused). */
  connected?: boolean;
  fromCache?: boolean;
  finishedAt?: number;
}

/** Collects the tab's requests; CDP's monotonic timestamps are put on the wall clock by each request's pair. */
function recordRequests(cdp: CDPSession): Map<string, Request> {
  const requests = new Map<string, Request>();
  // Seconds: wallTime − timestamp of the last request seen, to read the other events' timestamps as wall time.
  let offset = 0;
  cdp.on('Network.requestWillBeSent', (event) => {
    offset = event.wallTime - event.timestamp;
    requests.set(event.requestId, {
      url: event.request.url,
      kind: event.type ?? '',
      priority: event.request.initialPriority,
      askedAt: event.wallTime * 1000,
    });
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId);
    if (!request) return;
    request.fromCache = event.response.fromDiskCache || event.response.fromPrefetchCache;
    const timing = event.response.timing;
    if (!timing || timing.sendStart < 0) return;
    const start = (timing.requestTime + offset) * 1000;
    request.sentAt = start + timing.sendStart;
    request.connected = timing.connectStart >= 0;
    request.headersAt = start + timing.receiveHeadersEnd;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) request.finishedAt = (event.timestamp + offset) * 1000;
  });
  return requests;
}

/**
 * Notes, in the page, the wall time of the next pointerover, pointerdown and click (event timestamps), of
 * the new page's content put in (its h1 replaced) and of each response body the page's script read.
 */
async function armEventClock(page: Page): Promise<void> {
  await page.evaluate(() => {
    const at: Record<string, number> = {};
    (window as unknown as { __events: Record<string, number> }).__events = at;
    const h1 = document.querySelector('#main-content h1');
    const observer = new MutationObserver(() => {
      if (document.querySelector('#main-content h1') === h1) return;
      at['content'] = performance.timeOrigin + performance.now();
      observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true });
    for (const type of ['pointerover', 'pointerdown', 'click']) {
      document.addEventListener(type, (e) => (at[type] = performance.timeOrigin + e.timeStamp), {
        capture: true,
        once: true,
      });
    }
  });
}

/** When script had each response body (`Response.text`/`json` settled), ms after the click. */
function bodiesRead(at: Record<string, number>, clickAt: number): string {
  return Object.entries(at)
    .filter(([key]) => key.startsWith('body '))
    .map(([key, time]) => `${(time - clickAt).toFixed(1)} (${key.slice(-24)})`)
    .join(', ');
}

/** The click's requests as lines: from the click, ms; the split a request's timing gives. */
function describe(
  requests: Request[],
  clickAt: number,
  served: ReadonlyMap<string, { inAt: number; outAt?: number }>,
): string[] {
  const ms = (n: number) => n.toFixed(1).padStart(6);
  return requests.map((r) => {
    const name = r.url.replace(/^https?:\/\/[^/]+/, '').slice(-48);
    let split = '';
    if (r.sentAt !== undefined && r.headersAt !== undefined) {
      split =
        ` queued ${ms(r.sentAt - r.askedAt)}${r.connected ? ' (new connection)' : ''} server ${ms(r.headersAt - r.sentAt)}` +
        ` headers at ${ms(r.headersAt - clickAt)}`;
    } else if (r.fromCache) split = ' (cache)';
    const atServer = served.get(r.url.replace(/^https?:\/\/[^/]+/, ''));
    if (atServer?.outAt !== undefined) {
      split += ` (server: in at ${ms(atServer.inAt - clickAt)}, out at ${ms(atServer.outAt - clickAt)})`;
    }
    const done = r.finishedAt === undefined ? '      —' : ms(r.finishedAt - clickAt);
    return `asked ${ms(r.askedAt - clickAt)} ${r.priority.padEnd(8)}${split} done ${done}  ${r.kind} ${name}`;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ...CLICK_OPTIONS,
      profile: { type: 'boolean', default: false },
    },
  });
  const dist = values.dist;
  if (!dist) throw new Error('--dist DIR: a built site');
  // The server's own view of each request: when it came in and when its answer was handed to the socket.
  const served = new Map<string, { inAt: number; outAt?: number }>();
  const server = createSiteServer({ distDir: dist });
  server.on('request', (req, res) => {
    const seen = { inAt: performance.timeOrigin + performance.now() } as { inAt: number; outAt?: number };
    served.set(req.url ?? '', seen);
    res.on('finish', () => (seen.outAt = performance.timeOrigin + performance.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/${values.route}`;
  // `--profile`: the tab of a browser with a profile on disk, as a reader's is (its favicon database
  // among the rest); by default a fresh context, as the bench's other scripts use.
  const launch = { executablePath: ensureChromium(), args: CHROMIUM_ARGS };
  const profile = values.profile ? await mkdtemp(path.join(os.tmpdir(), 'click-network-')) : undefined;
  const context = profile
    ? await chromium.launchPersistentContext(profile, { ...launch, viewport: VIEWPORT })
    : await newContext(await chromium.launch(launch));
  // What newContext adds for the functions tsx sends to the page (bench/browser.ts).
  if (profile) await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  console.log(`load average at the start: ${loadAverage()}`);
  const close = async () => {
    await context.close();
    await context.browser()?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
    server.closeAllConnections();
    server.close();
  };
  const walls: number[] = [];
  // Each leg of the clicked page's fragment, per click (ms): its milestones after the click, in order.
  const legs = new Map<string, number[]>();
  const leg = (name: string, ms: number | undefined) => {
    if (ms !== undefined) legs.set(name, [...(legs.get(name) ?? []), ms]);
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const requests = recordRequests(cdp);
    await context.addInitScript(() => {
      for (const method of ['text', 'json'] as const) {
        const read = Response.prototype[method];
        Response.prototype[method] = function (this: Response) {
          const url = this.url;
          const result = read.call(this) as Promise<unknown>;
          void result.then(() => {
            const at = (window as unknown as { __events?: Record<string, number> }).__events;
            if (at) at[`body ${url}`] = performance.timeOrigin + performance.now();
          });
          return result;
        } as never;
      }
    });
    await page.goto(url);
    await hydrated(page);
    for (const { href, heading } of await clickTargets(page, dist, Number(values.clicks))) {
      requests.clear();
      served.clear();
      await armEventClock(page);
      const wall = await timedClick(page, href, heading, Number(values.hover));
      const at = await page.evaluate(() => (window as unknown as { __events: Record<string, number> }).__events);
      const clickAt = at['click'] ?? 0;
      const seen = [...requests.values()].filter((r) => r.askedAt >= (at['pointerover'] ?? clickAt) - 1);
      console.log(
        `${href}: painted ${wall?.toFixed(1) ?? '—'} ms after the click; pointerover ${((at['pointerover'] ?? clickAt) - clickAt).toFixed(1)}, ` +
          `pointerdown ${((at['pointerdown'] ?? clickAt) - clickAt).toFixed(1)} ms; content put in ` +
          `${((at['content'] ?? clickAt) - clickAt).toFixed(1)} ms; bodies read by script at ` +
          bodiesRead(at, clickAt),
      );
      for (const line of describe(seen, clickAt, served)) console.log(`  ${line}`);
      if (wall !== null) walls.push(wall);
      // The build names a page's fragment after its route (page.<route, dotted>.<hash>.html).
      const named = `/page.${
        href
          .replace(/^\/docs\//, '')
          .replace(/\/$/, '')
          .replaceAll('/', '.') || 'index'
      }.`;
      const fragment = seen.find((r) => r.url.includes(named));
      const atServer = fragment && served.get(fragment.url.replace(/^https?:\/\/[^/]+/, ''));
      const since = (at: number | undefined) => (at === undefined ? undefined : at - clickAt);
      leg('1 asked', since(fragment?.askedAt));
      leg('2 at the server', since(atServer?.inAt));
      leg('3 answered by the server', since(atServer?.outAt));
      leg('4 headers in the browser', since(fragment?.headersAt));
      leg('5 body done (network)', since(fragment?.finishedAt));
      leg('6 body read by script', since(fragment && at[`body ${fragment.url}`]));
      leg('7 content put in', since(at['content']));
      leg('8 painted', wall ?? undefined);
    }
  } finally {
    await close();
  }
  console.log(`the clicked page's fragment, ms after the click (median of ${walls.length} clicks, and each):`);
  for (const [name, values] of [...legs].sort()) {
    console.log(
      `  ${name.slice(2).padEnd(26)} ${median(values).toFixed(1).padStart(6)}  (${values.map(Math.round).join(' / ')})`,
    );
  }
  console.log(`load average at the end: ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
