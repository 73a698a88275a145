import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * A page's text the build keeps until the stage that uses it (its fragment, its markdown twin, its search
 * sections): read it each time it is needed, never hold on to it.
 */
export interface Stored<T> {
  read(): T;
}

export type StoredText = Stored<string>;

/** A text kept as it is, in memory. */
export function heldText(text: string): StoredText {
  return { read: () => text };
}

/** A value kept as JSON, parsed each time it is read; `json` reads the text itself. */
export interface StoredJson<T> extends Stored<T> {
  readonly json: StoredText;
}

/** Where texts are put: a `TextStore`, or, on a thread that hands its texts on at once, memory. */
export type TextSink = Pick<TextStore, 'put'>;

/** A value kept in a store as JSON. */
export function storedJson<T>(texts: TextSink, value: T): StoredJson<T> {
  return parsedJson(texts.put(JSON.stringify(value)));
}

/** The value of a stored JSON text. */
export function parsedJson<T>(json: StoredText): StoredJson<T> {
  return { json, read: () => JSON.parse(json.read()) as T };
}

/**
 * How much text (in characters) a store keeps in memory before it writes texts to its file. A site of a
 * few hundred pages never reaches it; past it, a large site's fragments and twins, which are most of what
 * the build would otherwise hold, wait on disk for the stage that writes them.
 */
const MEMORY_CHARACTERS = 16 * 1024 * 1024;

/** Numbers the files of this process's stores, as two stores may share a folder. */
let storesOpened = 0;

/**
 * Where the page texts of one build (or one `npm run dev` session) are kept: in memory up to a budget,
 * then appended to a file of their own in `dir`. The file is removed as soon as it is open, so it goes
 * with the process whatever way the process ends; `close` gives its space back at once.
 */
export class TextStore {
  private held = 0;
  private fd: number | undefined;
  private size = 0;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly memoryCharacters = MEMORY_CHARACTERS,
  ) {}

  put(text: string): StoredText {
    if (this.closed) throw new Error('text store used after it was closed');
    if (this.held + text.length <= this.memoryCharacters || text.length === 0) {
      this.held += text.length;
      return heldText(text);
    }
    const fd = this.file();
    const offset = this.size;
    const data = Buffer.from(text, 'utf8');
    for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done, offset + done);
    const bytes = data.length;
    this.size += bytes;
    return { read: () => this.readAt(offset, bytes) };
  }

  /** Lets the file go; texts written to it can no longer be read. */
  close(): void {
    this.closed = true;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private readAt(offset: number, bytes: number): string {
    if (this.fd === undefined) throw new Error('text store read after it was closed');
    return readText(this.fd, offset, bytes, 'text store file');
  }

  private file(): number {
    if (this.fd !== undefined) return this.fd;
    mkdirSync(this.dir, { recursive: true });
    const name = path.join(this.dir, `page-texts-${process.pid}-${++storesOpened}.tmp`);
    this.fd = openSync(name, 'wx+');
    unlinkSync(name);
    return this.fd;
  }
}

/** The UTF-8 text of `bytes` bytes at `offset` of an open file (`what` names it in the error of a short file). */
export function readText(fd: number, offset: number, bytes: number, what: string): string {
  return readBytes(fd, offset, bytes, what).toString('utf8');
}

/** The `bytes` bytes at `offset` of an open file (`what` names it in the error of a short file). */
export function readBytes(fd: number, offset: number, bytes: number, what: string): Buffer {
  const buffer = Buffer.allocUnsafe(bytes);
  for (let done = 0; done < bytes;) {
    const n = readSync(fd, buffer, done, bytes - done, offset + done);
    if (n === 0) throw new Error(`${what} ends at byte ${offset + done}, before byte ${offset + bytes}`);
    done += n;
  }
  return buffer;
}
