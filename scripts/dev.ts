/**
 * `npm run dev`: serves the content at http://127.0.0.1:5173/docs/ (PORT and HOST override), watches
 * content/ and src/, rebuilds only what changed and updates the open browser tabs in place.
 */
import path from 'node:path';
import { projectRootOf } from '../src/node/compiled';
import { startDevSession } from '../src/node/dev/session';

const root = projectRootOf(import.meta.url);
const contentDir = path.resolve(process.argv[2] ?? path.join(root, 'content'));
const time = () => new Date().toTimeString().slice(0, 8);

const session = await startDevSession({
  contentDir,
  srcDir: path.join(root, 'src'),
  cacheDir: path.join(root, 'node_modules/.cache/docs-dev'),
  port: Number(process.env['PORT'] ?? 5173),
  host: process.env['HOST'] ?? '127.0.0.1',
  log: (line, error) => (error ? console.error : console.log)(`${time()} ${line}`),
}).catch((error: unknown) => {
  console.error(`dev: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

console.log(`\n  Docs dev server: ${session.url}\n  watching ${path.relative(root, contentDir) || '.'}/ and src/\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(130);
    stopping = true;
    void session.close().then(() => process.exit(0));
  });
}
