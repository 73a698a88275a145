import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { textBytes, type StoredText } from '../analyze/text-store';
import { Pace } from '../pace';
import type { FolderUpdate } from './folder-update';

/** A file's contents; a text in parts (`llms-full.txt`) is read and written part after part, never joined. */
export type FileData = string | Uint8Array | readonly StoredText[];

/** A file's contents, or what makes them (a document's render), called only when the file is written. */
export type FileMaker = FileData | (() => Promise<FileData>);

export function isTextInParts(data: FileData): data is readonly StoredText[] {
  return Array.isArray(data);
}

/** Bytes of a text in parts written at once. */
const BATCH_BYTES = 1 << 20;

function* batches(parts: readonly StoredText[]): Generator<Buffer> {
  let batch: Buffer[] = [];
  let size = 0;
  for (const part of parts) {
    const bytes = textBytes(part);
    batch.push(bytes);
    size += bytes.length;
    if (size >= BATCH_BYTES) {
      yield Buffer.concat(batch, size);
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) yield Buffer.concat(batch, size);
}

/** How a file is written as part of an update (folder-update.ts). */
export interface Placing {
  /** What the file is made from: a file made from the same key as the previous build's is kept as it is. */
  key?: string;
  /** Only a file written after it leads a reader to it, as to a hashed file: new, it is written in its place. */
  reachedLater?: boolean;
  /** Its place in the order the update moves files into place, whatever order they are written in. */
  order?: number;
}

/**
 * A file written whole, at once, on this thread. A page's files are a few kilobytes, which the kernel
 * writes in microseconds; Node's thread pool would make each three requests (open, write, close), and
 * waking a pool thread and hearing back from it three times costs this thread, and the machine, several
 * times the write itself: a large site's output is tens of thousands of files. As a promise, so that a
 * failure is tracked as any write's is.
 */
function writeNow(file: string, data: string | Uint8Array): Promise<void> {
  try {
    writeFileSync(file, data);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/**
 * A text in parts: whole when it fits one batch, as nearly every one does (a page's fragment, its
 * markdown); batch after batch otherwise (`llms-full.txt`), on the thread pool.
 */
function writeParts(file: string, parts: readonly StoredText[]): Promise<void> {
  const all = batches(parts);
  const first = all.next();
  if (first.done) return writeNow(file, '');
  const second = all.next();
  if (second.done) return writeNow(file, first.value);
  return writeFile(
    file,
    (function* () {
      yield first.value;
      yield second.value;
      yield* all;
    })(),
  );
}

/** `from`'s link at `file`, made as `writeNow` writes; a copy where the two are on different file systems. */
function linkNow(from: string, file: string): Promise<void> {
  try {
    linkSync(from, file);
    return Promise.resolve();
  } catch {
    return copyFile(from, file);
  }
}

/**
 * Copies and large texts in flight at most, on the thread pool: enough to keep it busy, few enough to
 * bound the memory held.
 */
const MAX_PENDING_WRITES = 64;

/**
 * Writes output files, creating each folder once: a page's files at once (`writeNow`), copies and large
 * texts on Node's thread pool, while this thread goes on. `put` resolves once another write may start.
 */
export class OutputFolder {
  private readonly made = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  /** Files written at once never wait: the folder gives way now and then, as any long task here does. */
  private readonly pace = new Pace();
  private failure: unknown;

  private constructor(
    private readonly root: string,
    private readonly update: FolderUpdate | undefined,
  ) {}

  /**
   * Runs `write` on the folder and waits for every write it started, also when it fails, so that nothing
   * is still being written once it returns; rejects with the first failure. As part of an `update`, files
   * are written where it says (a changed file beside itself until the update commits), and a file given
   * the key it is made from is kept as the previous build left it when that key is unchanged, not made.
   */
  static async fill(root: string, write: (out: OutputFolder) => Promise<void>, update?: FolderUpdate): Promise<void> {
    const out = new OutputFolder(root, update);
    try {
      await write(out);
    } finally {
      await Promise.all(out.pending);
    }
    if (out.failure) throw out.failure;
  }

  /**
   * Writes a file; a text in parts is read and written in batches of about a megabyte, never joined whole.
   * A file kept as it is (`Placing.key`) is not made.
   */
  async put(relative: string, data: FileMaker, placing: Placing = {}): Promise<void> {
    if (this.keeps(relative, placing.key)) return;
    const contents = typeof data === 'function' ? await data() : data;
    const file = this.placeFor(relative, placing);
    const write = isTextInParts(contents) ? writeParts(file, contents) : writeNow(file, contents);
    return this.track(this.noted(write, relative, placing.key));
  }

  copy(from: string, relative: string, placing: Placing = {}): Promise<void> {
    if (this.keeps(relative, placing.key)) return Promise.resolve();
    const file = this.placeFor(relative, placing);
    return this.track(this.noted(copyFile(from, file), relative, placing.key));
  }

  /**
   * Makes the file another name of `from` (a file of another output with the same bytes): a link costs
   * the disk no new file. Copied where the two are on different file systems.
   */
  linkTo(from: string, relative: string, placing: Placing = {}): Promise<void> {
    if (this.keeps(relative, placing.key)) return Promise.resolve();
    const file = this.placeFor(relative, placing);
    return this.track(this.noted(linkNow(from, file), relative, placing.key));
  }

  /** Writes started and not yet ended: never many more than a bound, however many writers share the folder. */
  get writing(): number {
    return this.pending.size;
  }

  /** Waits for every write started so far, for a file that may only appear once they are on disk. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
    if (this.failure) throw this.failure;
  }

  private async track(write: Promise<void>): Promise<void> {
    const tracked: Promise<void> = write.then(
      () => void this.pending.delete(tracked),
      (error: unknown) => {
        this.pending.delete(tracked);
        this.failure ??= error;
      },
    );
    this.pending.add(tracked);
    await this.pace.tick();
    // Checked again on waking: writers waiting side by side all wake when one write ends, and each would
    // start another.
    while (this.pending.size >= MAX_PENDING_WRITES && !this.failure) await Promise.race(this.pending);
    if (this.failure) throw this.failure;
  }

  /** Whether the file stays as the previous build left it, made from the same `key`: it is not made. */
  keeps(relative: string, key: string | undefined): boolean {
    return key !== undefined && (this.update?.keep(relative, key) ?? false);
  }

  private async noted(write: Promise<void>, relative: string, key: string | undefined) {
    await write;
    if (key !== undefined) this.update?.wrote(relative, key);
  }

  /** Where to write the file, its folder made. */
  private placeFor(relative: string, { reachedLater, order }: Placing): string {
    const file = path.join(this.root, relative);
    const folder = path.dirname(file);
    if (!this.made.has(folder)) {
      const made = mkdirSync(folder, { recursive: true });
      this.update?.madeFolder(made, folder);
      this.made.add(folder);
    }
    return this.update ? this.update.placeFor(relative, file, reachedLater, order) : file;
  }
}
