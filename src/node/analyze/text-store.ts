import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * A page's text the build keeps until the stage that uses it (its fragment, its markdown twin, its search
 * sections): read it each time it is needed, never hold on to it.
 */
export interface Stored<T> {
  read(): T;
}

/** A stored text; `bytes`, where the store has them, reads it as UTF-8 without making it a string first. */
export interface StoredText extends Stored<string> {
  bytes?(): Buffer;
}

/** A stored text's UTF-8 bytes: a file written from many texts (`llms-full.txt`) is never decoded and encoded again. */
export function textBytes(text: StoredText): Buffer {
  return text.bytes?.() ?? Buffer.from(text.read(), 'utf8');
}

/** A text kept as it is, in memory: as a string, or as UTF-8 bytes (written as they are). */
export function heldText(text: string | Uint8Array): StoredText {
  if (typeof text === 'string') return { read: () => text };
  const bytes = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  return { read: () => bytes.toString('utf8'), bytes: () => bytes };
}

/** Where texts are put: a `TextStore`, or, on a thread that hands its texts on at once, memory. */
export interface TextSink {
  put(text: string): StoredText;
}

/** Where a text is: its segment (a file of the store's folder), its byte offset and its length in bytes. */
export type TextPlace = [segment: string, offset: number, bytes: number];

/** A text in a segment, which knows its place there. */
export interface PlacedText extends StoredText {
  readonly place: TextPlace;
}

/**
 * The one store of text that waits: the texts of the pages a build (or an `npm run dev` session) makes
 * wait on disk, appended to a segment of its own in the store's folder (`<cache>/pages`), until the
 * stage that uses them reads them. The render cache lives in the same folder: it keeps a made page by
 * naming where its texts already are, and reads the texts of the pages it holds from the segments of
 * earlier builds. A segment no cache index names is removed when its store closes (or by the next save
 * of the cache, should the process end first).
 */
export class TextStore {
  readonly dir: string;
  /** Open segments, each opened once: it stays readable while this build runs, even if another removes it. */
  private readonly fds = new Map<string, number>();
  private segment: string | undefined;
  private size = 0;
  private kept = false;
  private closed = false;

  /** The store of the cache folder `cacheDir`. */
  constructor(cacheDir: string) {
    this.dir = path.join(cacheDir, 'pages');
  }

  put(text: string | Buffer): PlacedText {
    if (this.closed) throw new Error('text store used after it was closed');
    const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    const segment = this.ownSegment();
    const fd = this.open(segment);
    for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done, this.size + done);
    const place: TextPlace = [segment, this.size, data.length];
    this.size += data.length;
    return this.at(place);
  }

  /** The text at `place`, in this store's segment or another of its folder. */
  at(place: TextPlace): PlacedText {
    return { place, read: () => this.bytes(place).toString('utf8'), bytes: () => this.bytes(place) };
  }

  /** Where `text` is in the folder: its place if it has one, else where it is put now. */
  placeOf(text: StoredText): TextPlace {
    return 'place' in text ? (text as PlacedText).place : this.put(text.read()).place;
  }

  /** The bytes at `place`. */
  bytes([segment, offset, bytes]: TextPlace): Buffer {
    if (this.closed) throw new Error('text store read after it was closed');
    const fd = this.open(segment);
    const buffer = Buffer.allocUnsafe(bytes);
    for (let done = 0; done < bytes;) {
      const n = readSync(fd, buffer, done, bytes - done, offset + done);
      if (n === 0) throw new Error(`text segment ${segment} ends at byte ${offset + done}, before ${offset + bytes}`);
      done += n;
    }
    return buffer;
  }

  /** Keeps this store's segment past `close` when a cache index names it (`named`). */
  keepIfNamed(named: ReadonlySet<string>): void {
    this.kept = this.segment !== undefined && named.has(this.segment);
  }

  /** Lets the segments go; this store's own is removed unless a cache keeps it. */
  close(): void {
    this.closed = true;
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    if (this.segment !== undefined && !this.kept) rmSync(path.join(this.dir, this.segment), { force: true });
  }

  private ownSegment(): string {
    if (this.segment !== undefined) return this.segment;
    mkdirSync(this.dir, { recursive: true });
    const name = `segment.${Date.now().toString(36)}.${randomBytes(4).toString('hex')}.bin`;
    this.fds.set(name, openSync(path.join(this.dir, name), 'wx+'));
    this.segment = name;
    return name;
  }

  /** A segment's descriptor, opened once; throws when it is gone: a cached page whose texts are gone is made again. */
  open(segment: string): number {
    let fd = this.fds.get(segment);
    if (fd === undefined) {
      fd = openSync(path.join(this.dir, segment), 'r');
      this.fds.set(segment, fd);
    }
    return fd;
  }
}
