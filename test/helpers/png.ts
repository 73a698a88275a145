import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG file of the given size: horizontal bands of two colours, so a screenshot-sized image is a
 * few kilobytes. For trees whose pages need images with real dimensions.
 */
export function pngImage(width: number, height: number): Uint8Array {
  // The two rows there are, each a filter byte (none) and one colour across: the bands alternate every 40.
  const rows = [
    [40, 90, 160],
    [230, 235, 240],
  ].map((colour) => {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(colour, 1 + x * 3);
    return row;
  });
  const pixels = Buffer.concat(Array.from({ length: height }, (_, y) => rows[Math.floor(y / 40) % 2] as Buffer));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A one-pixel PNG, and the same pixel in another colour: an image a test changes without changing its size. */
export const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
export const OTHER_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
