import { it } from 'vitest';

/**
 * The browser files of vitest.config.ts's NGINX_FILES run twice: under the preview server (the e2e project)
 * and under nginx with deploy/nginx.conf (e2e-nginx). A case whose outcome depends on the app and the build
 * alone, not on what serves the files, is an `appCase`: it runs under the preview server only, and the
 * nginx run keeps the file's cases that depend on the server (status codes, headers, content types,
 * redirects, the 404 page). Both servers send the Content-Security-Policy the build wrote
 * (test/unit/node/serve/site-analytics.test.ts compares them).
 */
export const appCase: ReturnType<typeof it.skipIf> = it.skipIf(process.env['E2E_SERVER'] === 'nginx');
