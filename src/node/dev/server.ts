import http from 'node:http';
import type { DevProblem, PageProblems } from '../../shared/dev-problems';
import type { DevEvent } from '../../shared/dev-update';
import { withScript } from '../site-stages';
import { answerFailure, answerFailures } from '../serve/failures';
import { createSiteServer } from '../serve/server';

/**
 * What the dev session tells the open tabs (`DevEvent`, but for the problems): `problems` follows every
 * rebuild with the site's errors and warnings while it has an error (none once fixed), and whether the site
 * written shows them (`written`) or the tabs keep the last good one. The stream carries only their count,
 * and a tab asks `DEV_PROBLEMS_PATH` for its page's.
 */
export type DevMessage =
  Exclude<DevEvent, { type: 'problems' }> | { type: 'problems'; diagnostics: DevProblem[]; written: boolean };

/** A URL path decoded, or as it is when it cannot be (the site server then answers it 400). */
function safelyDecoded(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

export const DEV_EVENTS_PATH = '/__dev/events';
export const DEV_SCRIPT_PATH = '/__dev/live.js';
/** `?page=` the page's URL path: its `PageProblems`. */
export const DEV_PROBLEMS_PATH = '/__dev/problems';

export interface DevServerOptions {
  distDir: string;
  base: string;
  analytics?: boolean;
  /** The bundled dev client (src/client/dev/live.ts). */
  liveScript: () => string;
  /**
   * Called before a request under the base is answered: writes the document it reads when the disk does
   * not have it as the site now is (documents are rendered on request).
   */
  prepare?: (pathname: string) => Promise<void>;
  /**
   * The older versions' built site (older-versions.ts), served under their bases once `built` settles:
   * they are built as the server starts, and a request for one waits for that.
   */
  olderVersions?: { distDir: string; bases: readonly string[]; built: Promise<unknown> };
}

export interface DevServer {
  server: http.Server;
  /** Tells every open tab; a tab that connects later is told of the last `problems` when there are any. */
  broadcast(message: DevMessage): void;
  /** Re-creates the static handler, after the site configuration changed. */
  refresh(): void;
  clients(): number;
  /** Ends the event streams and stops the server. */
  close(): Promise<void>;
}

/**
 * The production static server (src/node/serve) with two extra dev-only paths in front of it: the
 * Server-Sent Events stream at /__dev/events and the dev client at /__dev/live.js. Every other request is
 * answered exactly as `npm run preview` would answer it, so the dev site behaves like the deployed one.
 */
export function createDevServer(options: DevServerOptions): DevServer {
  const siteHandler = (distDir = options.distDir, document?: (html: string) => string) => {
    // Analytics stays as the session started (the tag manager is off unless asked for); the embed domains
    // and the redirects follow the last build (the site server reads them again after each one).
    const analytics = options.analytics ?? false;
    const site = createSiteServer({ distDir, base: options.base, analytics, ...(document && { document }) });
    const [listener] = site.listeners('request') as http.RequestListener[];
    if (!listener) throw new Error('the site server has no request handler');
    return listener;
  };
  let site = siteHandler();
  const older = options.olderVersions;
  // Built as `npm run build` builds them, and served as `npm run preview` would, with the dev client in
  // their documents: a tab of an older version takes its edits as the current version's tabs do.
  const olderSite = older && siteHandler(older.distDir, (html) => withScript(html, DEV_SCRIPT_PATH));
  const isOlder = (pathname: string) =>
    older?.bases.some((base) => pathname.startsWith(base) || pathname === base.replace(/\/$/, '')) ?? false;
  const streams = new Set<http.ServerResponse>();
  let problems: Extract<DevMessage, { type: 'problems' }> = { type: 'problems', diagnostics: [], written: true };
  const errorCount = () => problems.diagnostics.filter((d) => d.severity === 'error').length;

  const send = (res: http.ServerResponse, message: DevEvent) => res.write(`data: ${JSON.stringify(message)}\n\n`);

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === DEV_EVENTS_PATH && req.method === 'GET') {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        'X-Content-Type-Options': 'nosniff',
      });
      res.write('retry: 500\n\n');
      streams.add(res);
      if (problems.diagnostics.length > 0) send(res, { type: 'problems', errors: errorCount() });
      req.on('close', () => streams.delete(res));
      return;
    }
    if (pathname === DEV_PROBLEMS_PATH && req.method === 'GET') {
      const page = new URL(req.url ?? '/', 'http://localhost').searchParams.get('page') ?? '';
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(problemsOf(problems, safelyDecoded(page))));
      return;
    }
    if (pathname === DEV_SCRIPT_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : options.liveScript());
      return;
    }
    if (older && olderSite && isOlder(pathname ?? '')) {
      const answer = () => answerFailures(olderSite)(req, res);
      return void older.built.then(answer, answer);
    }
    const { prepare } = options;
    if (!prepare) return site(req, res);
    prepare(safelyDecoded(pathname ?? '/')).then(
      () => answerFailures(site)(req, res),
      (error: unknown) => answerFailure(req, res, error),
    );
  };
  // One request that fails is answered 500 and logged; the server goes on (serve/failures.ts).
  const server = http.createServer(answerFailures(handle));
  // Keeps idle event streams open (a comment line every 15 s) and lets close() end them.
  const heartbeat = setInterval(() => {
    for (const res of streams) res.write(': ping\n\n');
  }, 15_000);
  heartbeat.unref();

  return {
    server,
    broadcast(message) {
      let event: DevEvent;
      if (message.type === 'problems') {
        problems = message;
        event = { type: 'problems', errors: errorCount() };
      } else event = message;
      for (const res of streams) send(res, event);
    },
    refresh() {
      site = siteHandler();
    },
    clients: () => streams.size,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(heartbeat);
        for (const res of streams) res.end();
        streams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The problems a tab shows over `page`: none while the site has no error. */
function problemsOf(
  { diagnostics, written }: { diagnostics: DevProblem[]; written: boolean },
  page: string,
): PageProblems {
  const isError = (d: DevProblem) => d.severity === 'error';
  const shown = diagnostics.filter((d) => d.page === undefined || d.page === page);
  if (!shown.some(isError)) return { diagnostics: [], written, otherPages: 0 };
  const elsewhere = new Set(
    diagnostics.filter((d) => isError(d) && d.page !== undefined && d.page !== page).map((d) => d.page),
  );
  return { diagnostics: shown, written, otherPages: elsewhere.size };
}
