import { createHash } from 'node:crypto';

/** The hash in a content-hashed file name (fragments, assets, the manifest, the stylesheet): 8 hex digits. */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 8);
}

/** A file's whole digest (sha256): whether its bytes are still those a build read, never a name. */
export function fileDigest(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('base64url');
}

/** The content hash of several texts together (each followed by a newline), without joining them first. */
export function contentHashOfAll(parts: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\n');
  return hash.digest('hex').slice(0, 8);
}
