import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The hash in a content-hashed file name (fragments, assets, the manifest, the stylesheet): 8 hex digits. */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 8);
}

/** A file's whole digest (sha256): whether its bytes are still those a build read, never a name. */
export function fileDigest(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('base64url');
}

function hashOfAll(parts: Iterable<string>) {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\n');
  return hash;
}

/** The whole digest of several texts together: what an output file is made from (output-ledger.ts). */
export function digestOfAll(parts: Iterable<string>): string {
  return hashOfAll(parts).digest('base64url');
}

/**
 * The digest of the project's own code that something is made from: `preamble`, then every file under
 * each of `sources` (files or folders, relative to `srcDir`), with its path, in a stable order. A missing
 * file counts as such. Read synchronously: a hundred small files, once per build.
 */
export function sourceDigest(srcDir: string, sources: readonly string[], preamble: string): string {
  const hash = createHash('sha256').update(`${preamble}\0`);
  const files = sources.flatMap((source) => filesAt(path.join(srcDir, source)));
  for (const file of files.sort()) {
    let data: Buffer | string;
    try {
      data = readFileSync(file);
    } catch {
      data = '(none)';
    }
    hash.update(`${path.relative(srcDir, file)}\0`).update(data);
  }
  return hash.digest('base64url');
}

/** The files of a folder, at any depth, or the file itself (also when it is missing). */
function filesAt(place: string): string[] {
  let entries;
  try {
    entries = readdirSync(place, { withFileTypes: true, recursive: true });
  } catch {
    return [place];
  }
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
