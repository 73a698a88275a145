/**
 * Vitest global set-up: every temporary folder a run makes (trees, builds, browser profiles) goes under
 * one folder of its own, removed when the run ends, so runs never pile up in the system's /tmp. The
 * test processes start after this and take TMPDIR from it (Node's `os.tmpdir()` reads it).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Set while a run's folder exists: the projects of one run share it rather than nest their own in it. */
export const RUN_FOLDER = 'DOCS_TESTS_FOLDER';

export default async function setup(): Promise<() => Promise<void>> {
  // Chromium's socket path must stay short: a folder a project deep per project would overrun it.
  if (process.env[RUN_FOLDER]) return async () => {};
  const previous = process.env['TMPDIR'];
  const folder = await mkdtemp(path.join(tmpdir(), 'docs-tests-'));
  // Open to other users like /tmp itself: nginx's unprivileged workers read the sites built below it.
  await chmod(folder, 0o755);
  process.env['TMPDIR'] = folder;
  process.env[RUN_FOLDER] = folder;
  return async () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    delete process.env[RUN_FOLDER];
    await rm(folder, { recursive: true, force: true });
  };
}
