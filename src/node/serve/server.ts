import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import compression from 'compression';
import send from 'send';
import { POINTER_FILE } from '../../shared/site-data';
import { cacheControl, securityHeaders } from '../output/headers';
import { answerFailure, answerFailures, type FailureLog } from './failures';
import { locationHeader } from './location';
import { builtSite, securityOf } from './site-analytics';

export interface ServeOptions {
  /** The built site: the content of the base path. */
  distDir: string;
  /** The base to serve at; by default the one the site was built for (site-analytics.ts), else /docs/. */
  base?: string;
  /** Whether the CSP allows the tag manager; by default, what the built site's manifest says. */
  analytics?: boolean;
  /** Where a request that failed inside the server is reported; standard error by default. */
  log?: FailureLog;
  /** Changes each HTML document as it is served (`npm run dev` adds its client); none in production. */
  document?: (html: string) => string;
}

const MAX_URL_LENGTH = 4096;

/** Reads `_redirects` (`/docs/from /docs/to/ 301` per line) into a lookup table. */
function readRedirects(distDir: string): Map<string, string> {
  const table = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(path.join(distDir, '_redirects'), 'utf8');
  } catch {
    return table;
  }
  for (const line of text.split('\n')) {
    const [from, to] = line.trim().split(/\s+/);
    if (from && to && !from.startsWith('#')) table.set(from, to);
  }
  return table;
}

/** What the server takes from the built site: it changes with each build, so it is read again after one. */
interface BuiltState {
  base: string;
  redirects: Map<string, string>;
  headers: Record<string, string>;
}

/** Identifies a file's version without reading it: a build replaces files by renaming new ones into place. */
function versionOf(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'none';
  }
}

/**
 * A static server that behaves as production hosting should: canonical trailing-slash URLs, 301s for
 * the redirect table and `.html` variants, the 404 page with status 404, immutable caching for hashed
 * assets, compression, byte ranges, security headers, and nothing outside `dist/` ever readable. No
 * request can stop it: a request that fails inside it is answered 500 and logged (failures.ts).
 */
export function createSiteServer(options: ServeOptions): http.Server {
  const root = path.resolve(options.distDir);
  const notFoundPage = path.join(root, '404.html');
  // A rebuild writes version.json last and rewrites _redirects when the redirects change: both are looked at
  // (two stats) per request, so new redirects, a new base or new embed domains are served without a restart.
  const watched = [path.join(root, POINTER_FILE), path.join(root, '_redirects')];
  let state: BuiltState | undefined;
  let stateVersion = '';
  const current = (): BuiltState => {
    const version = watched.map(versionOf).join('|');
    if (state && version === stateVersion) return state;
    const built = builtSite(root, options.base);
    const security = securityOf(built?.settings);
    state = {
      base: options.base ?? built?.base ?? '/docs/',
      redirects: readRedirects(root),
      headers: securityHeaders(options.analytics ?? security.analytics, security.embeds, security.feedbackEndpoint),
    };
    stateVersion = version;
    return state;
  };

  // Compressing a partial answer would make its Content-Range name bytes of the compressed stream: a
  // range is answered as it is on disk, as nginx does.
  const compress = compression({
    filter: (req, res) => res.statusCode !== 206 && compression.filter(req, res),
  });

  const isDir = (p: string) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  /** The size of a file, or undefined when `p` is no file. */
  const fileSize = (p: string) => {
    try {
      const stat = statSync(p);
      return stat.isFile() ? stat.size : undefined;
    } catch {
      return undefined;
    }
  };

  const reply = (res: http.ServerResponse, status: number, body = '', type = 'text/plain; charset=utf-8') => {
    res.statusCode = status;
    res.setHeader('Content-Type', type);
    res.end(body);
  };
  const redirect = (res: http.ServerResponse, location: string) => {
    res.statusCode = 301;
    res.setHeader('Location', location);
    res.setHeader('Cache-Control', 'no-cache');
    res.end();
  };
  const notFound = (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.statusCode = 404;
    res.setHeader('Cache-Control', 'no-cache');
    let page: Buffer | undefined;
    try {
      page = readFileSync(notFoundPage);
    } catch {
      // No 404 page (or one a rebuild is replacing): the plain answer below.
    }
    if (!page) return reply(res, 404, 'Not found');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(req.method === 'HEAD' ? undefined : page);
  };

  /**
   * Streams the file at `segments` (its path in dist/) with ranges and conditional requests, through the
   * compression middleware. The handler below resolved the request to that one file (never a folder,
   * never a dot file). Several ranges in one request are answered with the whole file as 200 (send
   * builds no multipart answers), which RFC 9110 allows.
   */
  const sendFile = (req: http.IncomingMessage, res: http.ServerResponse, segments: string[], base: string) => {
    const servedAs = base + segments.join('/');
    res.setHeader('Cache-Control', cacheControl(servedAs, base));
    if (/\/(_redirects(\.nginx)?|_headers\.nginx)$/.test(servedAs))
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    // The pages for AI assistants and tools: llms.txt, llms-full.txt and each page's markdown twin.
    else if (servedAs.endsWith('.txt')) res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    else if (servedAs.endsWith('.md')) res.setHeader('Content-Type', 'text/markdown; charset=utf-8');
    // send's events come after the handler returned, out of reach of the safety net around it: each
    // listener answers its own failure.
    const guarded =
      <A extends unknown[]>(listener: (...args: A) => void) =>
      (...args: A) => {
        try {
          listener(...args);
        } catch (error) {
          answerFailure(req, res, error, options.log);
        }
      };
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {
      // send takes a URL path (it decodes it) below `root`: each name is encoded, so a file whose name has a
      // `%` is the file it names.
      const urlPath = `/${segments.map(encodeURIComponent).join('/')}`;
      send(req, urlPath, {
        root,
        etag: true,
        lastModified: true,
        cacheControl: false,
        index: false,
        dotfiles: 'ignore',
      })
        .on(
          'error',
          guarded((error: { status?: number; statusCode?: number }) => {
            // A file a rebuild removed between the lookup and the read, an unsatisfiable range, a failed
            // precondition.
            const status = error.status ?? error.statusCode ?? 500;
            if (status >= 500 || res.headersSent) return answerFailure(req, res, error, options.log);
            for (const name of ['Content-Length', 'ETag', 'Last-Modified', 'Accept-Ranges']) res.removeHeader(name);
            // A 416 keeps the Content-Range that send set: `bytes */<size>`, the size a client can ask within.
            if (status !== 416) res.removeHeader('Content-Range');
            if (status === 404) return notFound(req, res);
            return reply(res, status, http.STATUS_CODES[status] ?? 'Error');
          }),
        )
        .on(
          'directory',
          guarded(() => notFound(req, res)),
        )
        .pipe(res);
    });
  };

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const { base, redirects, headers } = current();
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const rawUrl = req.url ?? '/';
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return reply(res, 204);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return reply(res, 405, 'Method not allowed');
    }
    if (rawUrl.length > MAX_URL_LENGTH) return reply(res, 414, 'URL too long');
    const query = rawUrl.indexOf('?');
    const rawPath = query >= 0 ? rawUrl.slice(0, query) : rawUrl;
    const search = query >= 0 ? rawUrl.slice(query) : '';
    let pathname: string;
    try {
      pathname = decodeURIComponent(rawPath);
    } catch {
      return reply(res, 400, 'Bad request');
    }
    // Refuse anything that could step outside dist/, in any encoding, before a file is looked up; and a
    // control character, which no file of a site has and no header may carry back.
    if (
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f\u007f]/.test(pathname) ||
      pathname.includes('\\') ||
      /%2e|%2f|%5c|%00/i.test(pathname) ||
      pathname.split('/').includes('..')
    ) {
      return reply(res, 400, 'Bad request');
    }
    const go = (location: string) => redirect(res, locationHeader(location, search));
    if (base !== '/' && (pathname === '/' || pathname === base.replace(/\/$/, ''))) return go(base);
    if (!pathname.startsWith(base)) return notFound(req, res);

    const table = redirects.get(pathname);
    if (table) {
      // A target's `#section` goes after the query string, where a URL keeps it.
      const [targetPath = '', hash] = table.split('#', 2);
      return redirect(res, locationHeader(targetPath, search, hash));
    }
    const inDist = path.join(root, pathname.slice(base.length));
    if (inDist !== root && !inDist.startsWith(root + path.sep)) return reply(res, 400, 'Bad request');
    if (/\/index\.html$/.test(pathname) && pathname !== `${base}404.html`) {
      return go(pathname.replace(/index\.html$/, ''));
    }
    if (/\.html$/.test(pathname) && !pathname.startsWith(`${base}assets/`) && pathname !== `${base}404.html`) {
      const dir = pathname.replace(/\.html$/, '/');
      if (isDir(path.join(root, dir.slice(base.length)))) return go(dir);
    }
    if (!pathname.endsWith('/') && isDir(inDist)) return go(`${pathname}/`);

    // A folder is its index.html, anything else the file itself; dot files are never served.
    const file = pathname.endsWith('/') ? path.join(inDist, 'index.html') : inDist;
    const relative = path.relative(root, file).split(path.sep);
    const size = fileSize(file);
    if (relative.some((segment) => segment.startsWith('.')) || size === undefined) return notFound(req, res);
    // send reads an empty file from byte 0 to byte 0: a file a build is creating in place, still empty when
    // looked at, would have its first byte sent after an answer of Content-Length 0. Empty is answered here.
    if (size === 0) return reply(res, 200, '', 'application/octet-stream');
    // A suffix range longer than the file means the whole file (RFC 9110, 14.1.2); range-parser, under send,
    // answers it 416 before its 2.0 (which needs Node 22), so it is given the range it stands for.
    const suffix = /^\s*bytes=\s*-\s*(\d+)\s*$/.exec(req.headers.range ?? '')?.[1];
    if (suffix !== undefined && Number(suffix) > size) req.headers.range = 'bytes=0-';
    const { document } = options;
    if (document && file.endsWith('.html')) {
      res.setHeader('Cache-Control', 'no-cache');
      const html = document(readFileSync(file, 'utf8'));
      type Middleware = Parameters<typeof compress>;
      compress(req as Middleware[0], res as Middleware[1], () => reply(res, 200, html, 'text/html; charset=utf-8'));
      return undefined;
    }
    sendFile(req, res, relative, base);
    return undefined;
  };

  const server = http.createServer(answerFailures(handler, options.log));
  // Node hands CONNECT to this event instead of the request handler, and with no listener it drops the
  // connection without a word; answer it like every other refused method.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    const lines = Object.entries({ ...current().headers, Allow: 'GET, HEAD, OPTIONS', 'Content-Length': '0' }).map(
      ([name, value]) => `${name}: ${value}`,
    );
    socket.on('error', () => socket.destroy());
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
  });
  return server;
}
