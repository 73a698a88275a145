import type { ImageDimensions } from './assets';

/**
 * The article column at its widest, in CSS pixels (`.article` in src/client/styles/app.css): an image wider
 * than this is always shown scaled down, so a click on it shows it at full size.
 */
export const ARTICLE_WIDTH = 780;

/** The `width` and `height` attributes an image gets, in CSS pixels. */
export interface ImageBox {
  width: number;
  height: number;
}

/**
 * The width and height an `<img>` of a local file is given, so that the page keeps its place while it loads
 * (the stylesheet scales an image to the column with `height: auto`, which keeps the attributes' ratio):
 * its own size when the writer gave neither; with only one given, the other that keeps the image's
 * proportions. A side in `%` is that share of the column at its widest, any other is read as a browser
 * reads it (pixelsOf). Undefined when the writer gave both, or a side with no number (`auto`), or the
 * file's size is unknown: the tag stays as written.
 */
export function imageBox(
  width: string | undefined,
  height: string | undefined,
  intrinsic: ImageDimensions | undefined,
): ImageBox | undefined {
  if (!intrinsic || (width !== undefined && height !== undefined)) return undefined;
  if (width === undefined && height === undefined) return { ...intrinsic };
  const ratio = intrinsic.height / intrinsic.width;
  if (width !== undefined) {
    const pixels = pixelsOf(width, ARTICLE_WIDTH);
    return pixels === undefined ? undefined : { width: pixels, height: Math.max(1, Math.round(pixels * ratio)) };
  }
  const pixels = pixelsOf(height!, Math.round(ARTICLE_WIDTH * ratio));
  return pixels === undefined ? undefined : { width: Math.max(1, Math.round(pixels / ratio)), height: pixels };
}

/**
 * A `width` or `height` attribute as a browser reads it (HTML's rules for parsing dimension values): the
 * number it starts with, a share of `whole` when `%` follows at once, else pixels, whatever comes after
 * (`300px` and `30em` are 300 and 30 pixels to a browser). Undefined for a value with no number (`auto`).
 */
function pixelsOf(value: string, whole: number): number | undefined {
  const match = /^[\t\n\f\r ]*(\d+(?:\.\d+)?)(%)?/.exec(value);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const pixels = Math.round(match[2] === '%' ? (amount / 100) * whole : amount);
  return pixels > 0 ? pixels : undefined;
}

/**
 * The warning for an image from another site that is not given both sides: the build reads the size of the
 * files it copies, but would have to download a remote one, so such an image reserves no box and the text
 * after it moves when it arrives. Undefined for a local image, or a remote one given a width and a height.
 */
export function unsizedRemoteImage(src: string, width?: string, height?: string, markdown = false): string | undefined {
  if (!/^(https?:)?\/\//i.test(src.trim()) || (width !== undefined && height !== undefined)) return undefined;
  const fix = markdown ? `write it as <img src="${src}" width="…" height="…">` : 'give the <img> a width and a height';
  return `remote image "${src}" has no size the build can read, so the text after it moves when it loads: ${fix}, or copy the image into the content folder`;
}
