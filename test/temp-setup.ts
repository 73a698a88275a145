/**
 * Vitest global set-up: every temporary folder a run makes (trees, builds, browser profiles) goes under
 * one folder of its own, removed when the run ends, so runs never pile up in the system's /tmp. The
 * test processes start after this and take TMPDIR from it (Node's `os.tmpdir()` reads it).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default async function setup(): Promise<() => Promise<void>> {
  const previous = process.env['TMPDIR'];
  const folder = await mkdtemp(path.join(tmpdir(), 'docs-tests-'));
  // Open to other users like /tmp itself: nginx's unprivileged workers read the sites built below it.
  await chmod(folder, 0o755);
  process.env['TMPDIR'] = folder;
  return async () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    await rm(folder, { recursive: true, force: true });
  };
}
