import { createHash } from 'node:crypto';

/** The hash in a content-hashed file name (fragments, assets, the manifest, the stylesheet): 8 hex digits. */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 8);
}
