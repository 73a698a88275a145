/** `npm run preview`: serves the built dist/ under /docs/ exactly as production hosting would. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createSiteServer } from '../src/node/serve/server';
import { builtSiteSecurity } from '../src/node/serve/site-analytics';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const distDir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
if (!existsSync(path.join(distDir, 'index.html'))) {
  console.error(`serve: ${distDir} has no built site; run "npm run build" first`);
  process.exit(1);
}
const port = Number(process.env['PORT'] ?? 4173);
const host = process.env['HOST'] ?? '127.0.0.1';
// The CSP allows the tag manager only when the built site configures an analytics id.
const security = builtSiteSecurity(distDir);
createSiteServer({ distDir, security })
  .on('error', (error) => {
    console.error(`serve: ${error.message}`);
    process.exit(1);
  })
  .listen(port, host, () =>
    console.log(
      `Serving ${path.relative(process.cwd(), distDir) || '.'} at http://${host}:${port}/docs/` +
        (security.analytics ? ' (analytics on: the CSP allows the tag manager)' : ''),
    ),
  );
