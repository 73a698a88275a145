import { mkdirSync } from 'node:fs';
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StoredText } from '../content/text-store';

/** A file's contents; a text in parts (`llms-full.txt`) is read and written part after part, never joined. */
export type FileData = string | Uint8Array | readonly StoredText[];

export function isTextInParts(data: FileData): data is readonly StoredText[] {
  return Array.isArray(data);
}

/** Characters of a text in parts written at once. */
const BATCH_CHARS = 1 << 20;

function* batches(parts: readonly StoredText[]): Generator<string> {
  let batch: string[] = [];
  let size = 0;
  for (const part of parts) {
    const text = part.read();
    batch.push(text);
    size += text.length;
    if (size >= BATCH_CHARS) {
      yield batch.join('');
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) yield batch.join('');
}

/** Writes in flight at most: enough to keep the thread pool busy, few enough to bound the memory held. */
const MAX_PENDING_WRITES = 64;

/**
 * Writes output files, creating each folder once. The writes run on Node's thread pool while this
 * thread renders the next documents: on this two-core machine a build's few hundred writes cost
 * 0.1-0.5 s of kernel time, which then overlaps the rest. `put` resolves once another write may start.
 */
export class OutputFolder {
  private readonly made = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;

  private constructor(private readonly root: string) {}

  /**
   * Runs `write` on the folder and waits for every write it started, also when it fails, so that nothing
   * is still being written once it returns; rejects with the first failure.
   */
  static async fill(root: string, write: (out: OutputFolder) => Promise<void>): Promise<void> {
    const out = new OutputFolder(root);
    try {
      await write(out);
    } finally {
      await Promise.all(out.pending);
    }
    if (out.failure) throw out.failure;
  }

  /** Writes a file; a text in parts is read and written in batches of about a megabyte, never joined whole. */
  put(relative: string, data: FileData): Promise<void> {
    return this.track(writeFile(this.inFolder(relative), isTextInParts(data) ? batches(data) : data));
  }

  copy(from: string, relative: string): Promise<void> {
    return this.track(copyFile(from, this.inFolder(relative)));
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
    if (this.pending.size >= MAX_PENDING_WRITES) await Promise.race(this.pending);
    if (this.failure) throw this.failure;
  }

  /** The file's path, its folder made. */
  private inFolder(relative: string): string {
    const file = path.join(this.root, relative);
    const folder = path.dirname(file);
    if (!this.made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.made.add(folder);
    }
    return file;
  }
}
