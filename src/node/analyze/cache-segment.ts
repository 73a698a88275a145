import { randomBytes } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Where a text is: its segment, its byte offset and its length in bytes. */
export type TextPlace = [segment: string, offset: number, bytes: number];

/** A new segment file, written in batches of about a megabyte. */
export class SegmentWriter {
  private offset = 0;
  private written = 0;
  private batch: Buffer[] = [];
  private batchBytes = 0;

  private constructor(
    readonly name: string,
    private readonly file: FileHandle,
  ) {}

  static async create(dir: string): Promise<SegmentWriter> {
    const name = `segment.${Date.now().toString(36)}.${randomBytes(4).toString('hex')}.bin`;
    return new SegmentWriter(name, await open(path.join(dir, name), 'wx'));
  }

  /** Adds a text (or stored bytes); where it will be once the segment is closed. */
  async put(text: string | Buffer): Promise<TextPlace> {
    const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    const place: TextPlace = [this.name, this.offset, data.length];
    this.offset += data.length;
    this.batch.push(data);
    this.batchBytes += data.length;
    if (this.batchBytes >= 1 << 20) await this.flush();
    return place;
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.file.close();
    }
  }

  private async flush(): Promise<void> {
    const { batch } = this;
    this.batch = [];
    this.batchBytes = 0;
    let buffers = batch;
    while (buffers.length > 0) {
      const { bytesWritten } = await this.file.writev(buffers, this.written);
      this.written += bytesWritten;
      buffers = remainder(buffers, bytesWritten);
    }
  }
}

/** What of `buffers` a write of `done` bytes left unwritten. */
function remainder(buffers: Buffer[], done: number): Buffer[] {
  const left: Buffer[] = [];
  for (const buffer of buffers) {
    if (done >= buffer.length) done -= buffer.length;
    else {
      left.push(done > 0 ? buffer.subarray(done) : buffer);
      done = 0;
    }
  }
  return left;
}

/** A page's texts in the segments. */
export interface PlacedTexts {
  html: TextPlace;
  markdown: TextPlace;
  search: TextPlace;
}

/** Whether the segments hold more than twice the bytes of the texts still used. */
export async function mostlyDead(dir: string, segments: Set<string>, live: readonly PlacedTexts[]): Promise<boolean> {
  let total = 0;
  for (const segment of segments) total += (await stat(path.join(dir, segment))).size;
  const used = live.reduce((n, entry) => n + entry.html[2] + entry.markdown[2] + entry.search[2], 0);
  return total > 2 * used;
}

/** Copies every live text into one new segment (the entries change in place). */
export async function compact(
  dir: string,
  live: readonly PlacedTexts[],
  bytes: (place: TextPlace) => Buffer,
): Promise<void> {
  const segment = await SegmentWriter.create(dir);
  try {
    const move = (place: TextPlace) => segment.put(bytes(place));
    for (const entry of live) {
      entry.html = await move(entry.html);
      entry.markdown = await move(entry.markdown);
      entry.search = await move(entry.search);
    }
  } finally {
    await segment.close();
  }
}
