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
 * proportions. A side in `px` is that many pixels; in `%` it is that share of the column at its widest.
 * Undefined when the writer gave both, or a side this cannot read (`auto`, `10em`), or the file's size is
 * unknown: the tag stays as written.
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

/** `300`, `300px`, `50%` (of `whole`) as whole pixels; undefined for any other length. */
function pixelsOf(value: string, whole: number): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$/i.exec(value);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const pixels = Math.round(match[2] === '%' ? (amount / 100) * whole : amount);
  return pixels > 0 ? pixels : undefined;
}
