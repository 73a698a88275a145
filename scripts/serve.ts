/**
 * `npm run preview [-- <dist>]`: serves a built dist/ exactly as production hosting would, at the base the
 * site was built for (read from the build: `/docs/` for this site, `/` for an imported VuePress site).
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createSiteServer } from '../src/node/serve/server';
import { builtSite, securityOf } from '../src/node/serve/site-analytics';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const distDir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
if (!existsSync(path.join(distDir, 'index.html'))) {
  console.error(`serve: ${distDir} has no built site; run "npm run build" first`);
  process.exit(1);
}
const port = Number(process.env['PORT'] ?? 4173);
const host = process.env['HOST'] ?? '127.0.0.1';
const built = builtSite(distDir);
if (!built) console.error(`serve: ${distDir} names no readable manifest in version.json; serving it at /docs/`);
// The CSP allows the tag manager only when the built site configures an analytics id.
const { analytics } = securityOf(built?.settings);
const server = createSiteServer({ distDir });
server
  .on('error', (error) => {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  })
  .listen(port, host, () => {
    // The port actually bound: PORT=0 asks for any free one.
    const { port: bound } = server.address() as AddressInfo;
    console.log(
      `Serving ${path.relative(process.cwd(), distDir) || '.'} at http://${host}:${bound}${built?.base ?? '/docs/'}` +
        (analytics ? ' (analytics on: the CSP allows the tag manager)' : ''),
    );
  });
