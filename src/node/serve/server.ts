import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import compression from 'compression';
import sirv from 'sirv';
import { cacheControl, securityHeaders } from './headers';
import { builtSiteSecurity, type BuiltSiteSecurity } from './site-analytics';

export interface ServeOptions {
  /** The built site: the content of the base path. */
  distDir: string;
  base?: string;
  /** What the CSP allows; by default, what the built site's manifest says (site-analytics.ts). */
  security?: BuiltSiteSecurity;
}

const MAX_URL_LENGTH = 4096;

/** Reads `_redirects` (`/docs/from /docs/to/ 301` per line) into a lookup table. */
function readRedirects(distDir: string): Map<string, string> {
  const table = new Map<string, string>();
  const file = path.join(distDir, '_redirects');
  if (!existsSync(file)) return table;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [from, to] = line.trim().split(/\s+/);
    if (from && to && !from.startsWith('#')) table.set(from, to);
  }
  return table;
}

/**
 * A static server that behaves as production hosting should: canonical trailing-slash URLs, 301s for
 * the redirect table and `.html` variants, the 404 page with status 404, immutable caching for hashed
 * assets, compression, security headers, and nothing outside `dist/` ever readable.
 */
export function createSiteServer(options: ServeOptions): http.Server {
  const base = options.base ?? '/docs/';
  const root = path.resolve(options.distDir);
  const redirects = readRedirects(root);
  const { analytics, embeds } = options.security ?? builtSiteSecurity(root, base);
  const headers = securityHeaders(analytics, embeds);
  const notFoundPage = path.join(root, '404.html');
  const compress = compression();
  const files = sirv(root, {
    // Looks files up per request, so a rebuild (which updates dist/ in place) is served at once without a restart.
    dev: true,
    etag: true,
    // The handler below resolves every request to one exact file, so sirv never guesses: no `x` → `x.html`
    // (which answered /docs/404 and /docs/404/ with the not-found page and status 200).
    extensions: [],
    dotfiles: false,
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', cacheControl(base + pathname.replace(/^\//, ''), base));
      if (/\/(_redirects(\.nginx)?|_headers\.nginx)$/.test(pathname))
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      // The pages for AI assistants and tools: llms.txt, llms-full.txt and each page's markdown twin.
      else if (pathname.endsWith('.txt')) res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      else if (pathname.endsWith('.md')) res.setHeader('Content-Type', 'text/markdown; charset=utf-8');
    },
  });

  const isDir = (p: string) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  const isFile = (p: string) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };

  const send = (res: http.ServerResponse, status: number, body = '', type = 'text/plain; charset=utf-8') => {
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
    if (existsSync(notFoundPage)) {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(req.method === 'HEAD' ? undefined : readFileSync(notFoundPage));
    } else send(res, 404, 'Not found');
  };

  const server = http.createServer((req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const rawUrl = req.url ?? '/';
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return send(res, 204);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return send(res, 405, 'Method not allowed');
    }
    if (rawUrl.length > MAX_URL_LENGTH) return send(res, 414, 'URL too long');
    const query = rawUrl.indexOf('?');
    const rawPath = query >= 0 ? rawUrl.slice(0, query) : rawUrl;
    const search = query >= 0 ? rawUrl.slice(query) : '';
    let pathname: string;
    try {
      pathname = decodeURIComponent(rawPath);
    } catch {
      return send(res, 400, 'Bad request');
    }
    // Refuse anything that could step outside dist/, in any encoding, before a file is looked up.
    if (
      pathname.includes('\0') ||
      pathname.includes('\\') ||
      /%2e|%2f|%5c|%00/i.test(pathname) ||
      pathname.split('/').includes('..')
    ) {
      return send(res, 400, 'Bad request');
    }
    if (pathname === '/' || pathname === base.replace(/\/$/, '')) return redirect(res, base + search);
    if (!pathname.startsWith(base)) return notFound(req, res);

    const table = redirects.get(pathname);
    if (table) {
      // A target's `#section` goes after the query string, where a URL keeps it.
      const [targetPath = '', hash] = table.split('#', 2);
      return redirect(res, targetPath + search + (hash === undefined ? '' : `#${hash}`));
    }
    const inDist = path.join(root, pathname.slice(base.length));
    if (inDist !== root && !inDist.startsWith(root + path.sep)) return send(res, 400, 'Bad request');
    if (/\/index\.html$/.test(pathname) && pathname !== `${base}404.html`) {
      return redirect(res, pathname.replace(/index\.html$/, '') + search);
    }
    if (/\.html$/.test(pathname) && !pathname.startsWith(`${base}assets/`) && pathname !== `${base}404.html`) {
      const dir = pathname.replace(/\.html$/, '/');
      if (isDir(path.join(root, dir.slice(base.length)))) return redirect(res, dir + search);
    }
    if (!pathname.endsWith('/') && isDir(inDist)) return redirect(res, `${pathname}/${search}`);

    // A folder is its index.html, anything else the file itself; dot files are never served.
    const file = pathname.endsWith('/') ? path.join(inDist, 'index.html') : inDist;
    const relative = path.relative(root, file).split(path.sep);
    if (relative.some((segment) => segment.startsWith('.')) || !isFile(file)) return notFound(req, res);
    req.url = `/${relative.map(encodeURIComponent).join('/')}${search}`;
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {
      files(req, res, () => notFound(req, res));
    });
    return undefined;
  });
  // Node hands CONNECT to this event instead of the request handler, and with no listener it drops the
  // connection without a word; answer it like every other refused method.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    const lines = Object.entries({ ...headers, Allow: 'GET, HEAD, OPTIONS', 'Content-Length': '0' }).map(
      ([name, value]) => `${name}: ${value}`,
    );
    socket.on('error', () => socket.destroy());
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
  });
  return server;
}
