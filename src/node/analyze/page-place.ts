import path from 'node:path';
import { routeFromRelativePath } from '../../shared/paths';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { contentHash, fileDigest } from '../content-hash';
import type { CompletePage } from './page-record';
import { textBytes, type StoredText } from './text-store';

/**
 * The base the analyze stage makes pages with: its links and image URLs start with this, and the site's
 * base takes its place as the page's texts are read (`withBase`). So a page is made once for every version
 * and every base it is served under, and the render cache keeps it so. ASCII that no escaping or URL
 * encoding changes, and that no writer writes.
 */
export const BASE_PLACEHOLDER = '/__page-base-5f0c__/';
const PLACEHOLDER_BYTES = Buffer.from(BASE_PLACEHOLDER);

/** `bytes` with every `from` replaced by `to`: the bytes of `replaceAll` on the text, for ASCII `from`. */
function replacedBytes(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  let at = bytes.indexOf(from);
  if (at < 0) return bytes;
  const parts: Buffer[] = [];
  let start = 0;
  for (; at >= 0; at = bytes.indexOf(from, start)) {
    parts.push(bytes.subarray(start, at), to);
    start = at + from.length;
  }
  parts.push(bytes.subarray(start));
  return Buffer.concat(parts);
}

/** A text made with `BASE_PLACEHOLDER` as it is served under `base`, as a string or as bytes. */
export function basedText(text: StoredText, base: string): StoredText {
  const baseBytes = Buffer.from(base);
  return {
    read: () => text.read().replaceAll(BASE_PLACEHOLDER, base),
    bytes: () => replacedBytes(textBytes(text), PLACEHOLDER_BYTES, baseBytes),
  };
}

/**
 * A page made with `BASE_PLACEHOLDER` as it is served under `base`: its fragment, its twin and its images'
 * URLs with the base, and its hash that of the fragment so read (the hash names the fragment's file, which
 * a browser may keep as long as it likes), taken from the base-free hash rather than by reading the fragment.
 */
export function withBase(page: CompletePage, base: string): CompletePage {
  if (base === BASE_PLACEHOLDER) return page;
  const based = (text: StoredText) => basedText(text, base);
  const assets = page.analysis.assets.map((asset) => ({ ...asset, url: asset.url.replace(BASE_PLACEHOLDER, base) }));
  return {
    ...page,
    html: based(page.html),
    markdown: based(page.markdown),
    hash: contentHash(`${page.hash}\0${base}`),
    analysis: { ...page.analysis, assets },
  };
}

/** What the render cache keeps of a page's record: nothing of where its file is, its files named from its folder. */
export type PlaceFreeRecord = Omit<CompletePage, 'file' | 'html' | 'markdown' | 'search'>;

/** A page's record with the files it names (images, missing images) relative to its own file's folder. */
export function placeFree(record: PlaceFreeRecord, pageFile: string): PlaceFreeRecord {
  const folder = path.dirname(pageFile);
  const relative = (file: string) => path.relative(folder, file).split(path.sep).join('/');
  const { analysis } = record;
  return {
    ...record,
    analysis: {
      ...analysis,
      assets: analysis.assets.map((asset) => ({ ...asset, absolutePath: relative(asset.absolutePath) })),
      uncopied: analysis.uncopied.map(relative),
    },
  };
}

/** The files a place-free record names, as they are beside `pageFile`. */
export function filesNamed(record: PlaceFreeRecord, pageFile: string): { assets: string[]; uncopied: string[] } {
  const folder = path.dirname(pageFile);
  const { assets, uncopied } = record.analysis;
  return {
    assets: assets.map((asset) => path.resolve(folder, asset.absolutePath)),
    uncopied: uncopied.map((file) => path.resolve(folder, file)),
  };
}

/** A file's size and time, as a page's record keeps those of its images. */
export interface FileStats {
  size: number;
  mtimeMs: number;
}

/** A place-free record as it is beside `pageFile`, its images' stats as they are now (`stats`, in their order). */
export function placed(record: PlaceFreeRecord, pageFile: string, stats: readonly FileStats[]): PlaceFreeRecord {
  const named = filesNamed(record, pageFile);
  const assets = record.analysis.assets.map((asset, i) => ({
    ...asset,
    absolutePath: named.assets[i] ?? asset.absolutePath,
    ...stats[i],
  }));
  return { ...record, analysis: { ...record.analysis, assets, uncopied: named.uncopied } };
}

/**
 * For the home page's file, the name of its content folder, after which it is named when it has no title
 * (`titleFromPath`); '' for any other page, whose name does not depend on its folder.
 */
export function homeFolderName(file: { absolutePath: string; relativePath: string }): string {
  return routeFromRelativePath(file.relativePath) === '/' ? path.basename(path.dirname(file.absolutePath)) : '';
}

/**
 * What of the site a page was made with, besides its file: the constants its text names with their
 * values (null: no such constant), and its images' digests (`digestOf`). Undefined when its file or an
 * image changed since the page pass read them.
 */
export function madeOf(
  page: CompletePage,
  constants: Readonly<Record<string, string>>,
  digestOf: (file: string, stats: Stats) => string,
): { constants: [string, string | null][]; assets: string[] } | undefined {
  const text = readFileSync(page.file.absolutePath);
  if (fileDigest(text) !== page.source.digest) return undefined;
  const names = text.toString('utf8').matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g);
  const named = [...new Set(Array.from(names, (m) => m[1] ?? ''))];
  const assets: string[] = [];
  for (const { absolutePath, size, mtimeMs } of page.analysis.assets) {
    const now = statSync(absolutePath);
    if (now.size !== size || now.mtimeMs !== mtimeMs) return undefined;
    assets.push(digestOf(absolutePath, now));
  }
  return { constants: named.map((name) => [name, constants[name] ?? null]), assets };
}
