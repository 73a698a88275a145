import { createHash } from 'node:crypto';

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

/** The content hash of several texts together (each followed by a newline), without joining them first. */
export function contentHashOfAll(parts: Iterable<string>): string {
  return hashOfAll(parts).digest('hex').slice(0, 8);
}

/** The whole digest of several texts together: what an output file is made from (output-ledger.ts). */
export function digestOfAll(parts: Iterable<string>): string {
  return hashOfAll(parts).digest('base64url');
}
