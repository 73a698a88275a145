import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** A folder written beside its final place, so a failed build never touches the previous output. */
export interface StagedFolder {
  target: string;
  staging: string;
}

export async function stage(target: string): Promise<StagedFolder> {
  const resolved = path.resolve(target);
  const staging = `${resolved}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  return { target: resolved, staging };
}

/**
 * Swaps every staged folder into place; only called once the whole build has succeeded. The previous
 * outputs are removed once all are swapped, side by side.
 */
export async function commit(folders: StagedFolder[]): Promise<void> {
  const previous: string[] = [];
  for (const { target, staging } of folders) {
    const old = `${target}.old-${process.pid}`;
    await rm(old, { recursive: true, force: true });
    await rename(target, old).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(staging, target);
    previous.push(old);
  }
  await Promise.all(previous.map((old) => rm(old, { recursive: true, force: true })));
}

export async function discard(folders: StagedFolder[]): Promise<void> {
  await Promise.all(folders.map((f) => rm(f.staging, { recursive: true, force: true })));
}
