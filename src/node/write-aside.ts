import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `file` beside itself, in its folder (made when missing), and renames it into place: a build or a
 * process that reads it meanwhile reads the old file or the new one, never half of one. The name written
 * aside is this process's and this call's, so that builds saving the same file at once never write into
 * each other's.
 */
export async function writeAside(file: string, data: string | Uint8Array | Iterable<string>): Promise<void> {
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(partial, data);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
