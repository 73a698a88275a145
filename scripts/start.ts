/** `npm start`: builds the site when the build is missing or older than its sources, then serves it. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { compile, compiledFile, projectRootOf } from '../src/node/compiled';

const root = projectRootOf(import.meta.url);

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const builtAt = existsSync(path.join(root, 'dist/index.html'))
  ? statSync(path.join(root, 'dist/index.html')).mtimeMs
  : 0;
// The build's own entry and the installed dependencies change the output as much as the content does.
const sourcesAt = Math.max(
  newest(path.join(root, 'content')),
  newest(path.join(root, 'src')),
  ...['build.ts', 'package-lock.json'].map((file) => statSync(path.join(root, file)).mtimeMs),
);
if (builtAt < sourcesAt) {
  await compile(root);
  const result = spawnSync(process.execPath, [compiledFile(root, 'build')], {
    stdio: 'inherit',
    cwd: root,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import('./serve');
