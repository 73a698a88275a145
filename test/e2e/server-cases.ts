import { describe, it } from 'vitest';

const underNginx = process.env['E2E_SERVER'] === 'nginx';

/**
 * The browser files of vitest.config.ts's NGINX_FILES run twice: under the preview server (the e2e project)
 * and under nginx with deploy/nginx.conf (e2e-nginx). A case whose outcome depends on the app and the build
 * alone, not on what serves the files, is an `appCase`: it is a case of the preview server's run only (the
 * nginx run does not have it, rather than skip it), and the nginx run keeps the file's cases that depend on
 * the server (status codes, headers, content types, redirects, the 404 page). Both servers send the
 * Content-Security-Policy the build wrote (test/unit/node/serve/site-analytics.test.ts compares them).
 */
export function appCase(name: string, test: () => Promise<void>, timeout?: number): void {
  if (!underNginx) it(name, test, timeout);
}

/** A group of `appCase`s alone: not in the nginx run either. */
export function appSuite(name: string, cases: () => void): void {
  if (!underNginx) describe(name, cases);
}
