import { readFileSync, realpathSync, statSync } from 'node:fs';
import nodePath from 'node:path';
import { imageSize } from 'image-size';
import { contentHash } from '../../content-hash';
import { isInside } from '../../scan/scan';

/** A local file a page refers to, copied into the output under a hashed name. */
export interface PageAsset {
  absolutePath: string;
  /** URL with the base: `/docs/assets/img/diagram.1a2b3c4d.png`. */
  url: string;
  /** The file's size and time when its hash was taken: a later build tells a changed file by them. */
  size: number;
  mtimeMs: number;
  /** An image's intrinsic size in CSS pixels, when its format tells it: the page reserves its box. */
  dimensions?: ImageDimensions;
}

export interface ImageDimensions {
  width: number;
  height: number;
}

/** Images go to `assets/img/`, anything else a page links to or embeds (PDF, video, archive) to `assets/files/`. */
export type AssetKind = 'image' | 'file';

export interface AssetPlace {
  /** Folder of the page's source file: relative asset paths start there. */
  absoluteDir: string;
  /** The content folder; no asset may come from outside it. */
  contentDir: string;
  base: string;
}

/**
 * The copy to make, or what is wrong: the file is missing, or it lies outside the content folder; with the
 * path looked at (`path`) when there was one to look at.
 */
export type AssetResult = { asset: PageAsset; href: string } | { problem: string; outside: boolean; path?: string };

/**
 * A relative link whose last segment has a file extension other than a page's (`./guide.pdf`, `../x.zip`) is
 * a file next to the page, not a route. Links without an extension stay routes (`../setup`).
 */
export function isFileLink(href: string): boolean {
  const target = href.trim().split(/[?#]/)[0] ?? '';
  if (target === '' || target.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(target)) return false;
  const last = target.split('/').pop() ?? '';
  return /\.[a-z0-9]+$/i.test(last) && !/\.(md|html?)$/i.test(last);
}

/**
 * Finds a relative image or file on disk, confined to the content folder (after symlinks are resolved, so a
 * link cannot lead a build into copying /etc/hostname), and names its hashed copy. The `#fragment` stays.
 */
export function localAsset(written: string, kind: AssetKind, place: AssetPlace): AssetResult {
  const label = kind === 'image' ? 'image' : 'file';
  const hashAt = written.search(/[?#]/);
  const target = hashAt < 0 ? written : written.slice(0, hashAt);
  const fragment = hashAt >= 0 && written[hashAt] === '#' ? written.slice(hashAt) : '';
  const notFound = { problem: `${label} not found: ${written}`, outside: false };
  const outside = { problem: `${label} "${written}" is outside the content folder`, outside: true };
  // An empty or anchor-only src (`![x]()`, `![x](#a)`) resolves to the page's folder: not a file.
  if (target.trim() === '') return notFound;
  // `/logo.png` is the content folder's `logo.png`, as an older site's public folder served it.
  const absolutePath = target.startsWith('/')
    ? nodePath.join(place.contentDir, decodePath(target))
    : nodePath.resolve(place.absoluteDir, decodePath(target));
  if (!isInside(place.contentDir, absolutePath)) return outside;
  const found = realFile(absolutePath);
  if (found === undefined) return { ...notFound, path: absolutePath };
  const { real, size, mtimeMs } = found;
  if (!isInside(realFolder(place.contentDir), real)) return { ...outside, path: absolutePath };
  const content = readFileSync(real);
  const hash = contentHash(content);
  const ext = nodePath.extname(absolutePath);
  const name = nodePath.basename(absolutePath, ext).replace(/[^a-zA-Z0-9_-]+/g, '-');
  const url = `${place.base}assets/${kind === 'image' ? 'img' : 'files'}/${name}.${hash}${ext.toLowerCase()}`;
  const dimensions = kind === 'image' ? dimensionsOf(content) : undefined;
  // The path as written, not the real one: the dev server matches changed files against it.
  return { asset: { absolutePath, url, size, mtimeMs, ...(dimensions && { dimensions }) }, href: url + fragment };
}

/**
 * Width and height as a browser lays the image out: a photo whose EXIF orientation turns it a quarter
 * is shown with its sides swapped. Undefined for a format image-size does not know or a damaged file;
 * such an image keeps its `loading="lazy"` and simply has no reserved box.
 */
function dimensionsOf(content: Uint8Array): ImageDimensions | undefined {
  try {
    const { width, height, orientation } = imageSize(content);
    if (!(width > 0 && height > 0)) return undefined;
    return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
  } catch {
    return undefined;
  }
}

/**
 * The real path, size and time of a regular file, or undefined for a missing file, a folder or a name
 * the OS refuses.
 */
function realFile(file: string): { real: string; size: number; mtimeMs: number } | undefined {
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    return stats?.isFile() ? { real: realpathSync(file), size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/** decodeURI that keeps a malformed escape (`%E0%A4%A`) as written instead of throwing: that file is not found. */
function decodePath(uri: string): string {
  try {
    return decodeURI(uri);
  } catch {
    return uri;
  }
}
