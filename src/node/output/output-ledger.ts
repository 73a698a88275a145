import { writeAside } from '../write-aside';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { contentHash } from '../content-hash';

/** A file as the ledger knows it: what it was made from, and the size and time it was written with. */
type Entry = [key: string, size: number, mtimeMs: number];

interface LedgerFile {
  target: string;
  files: Record<string, Entry>;
}

/**
 * What each file of an output folder was made from, kept in the cache folder between builds, so that a
 * build leaves a file alone when it would make it from the same key (a page's texts, a document's view of
 * the site) as the previous build did. A file counts as unchanged only while it has the size and time it
 * was written with, so a hand edit in the output is never carried on. A missing or damaged ledger only
 * means every file is written.
 */
export class OutputLedger {
  /** The entries of the files kept as they were. */
  private readonly next = new Map<string, Entry>();
  /** The files this build wrote, with the key each was made from: their sizes and times are read at `save`. */
  private readonly written = new Map<string, string>();

  private constructor(
    private readonly file: string,
    private readonly target: string,
    private readonly earlier: ReadonlyMap<string, Entry>,
  ) {}

  /** The ledger of the output folder `target`, kept in `cacheDir`. */
  static async open(cacheDir: string, target: string): Promise<OutputLedger> {
    const resolved = path.resolve(target);
    const file = path.join(cacheDir, 'output', `${contentHash(resolved)}.json`);
    let earlier = new Map<string, Entry>();
    try {
      const saved = JSON.parse(await readFile(file, 'utf8')) as LedgerFile;
      if (saved.target === resolved) earlier = new Map(Object.entries(saved.files));
    } catch {
      // No ledger yet, or an unreadable one: every file is made.
    }
    return new OutputLedger(file, resolved, earlier);
  }

  /**
   * Whether `relative` is still the file the previous build made from `key`, untouched since; noted
   * for the next build when it is. Synchronous: a stat costs less than a trip to the thread pool.
   */
  unchanged(relative: string, key: string): boolean {
    const entry = this.earlier.get(relative);
    if (!entry || entry[0] !== key) return false;
    try {
      // Joined by hand: the ledger's paths are relative and normal, and a large site checks tens of thousands.
      const stats = statSync(`${this.target}${path.sep}${relative}`);
      if (stats.size !== entry[1] || stats.mtimeMs !== entry[2]) return false;
    } catch {
      return false;
    }
    this.next.set(relative, entry);
    return true;
  }

  /** Whether the previous build made `relative` from `key`, by the ledger alone: `unchanged` also asks the disk. */
  madeFrom(relative: string, key: string): boolean {
    return this.earlier.get(relative)?.[0] === key;
  }

  /** Notes a file this build wrote from `key`. */
  wrote(relative: string, key: string): void {
    this.written.set(relative, key);
  }

  /**
   * Saves what this build wrote, once its folder is up to date (every file in its place); a failure only
   * costs the next build time. The written files' sizes and times are read here, on this thread, a stat
   * each: cheaper than one trip to the thread pool per file as each is written.
   */
  async save(): Promise<void> {
    for (const [relative, key] of this.written) {
      try {
        const stats = statSync(`${this.target}${path.sep}${relative}`);
        this.next.set(relative, [key, stats.size, stats.mtimeMs]);
      } catch {
        // Gone already (removed by hand): the next build makes it again.
      }
    }
    const saved: LedgerFile = { target: this.target, files: Object.fromEntries(this.next) };
    try {
      await writeAside(this.file, JSON.stringify(saved));
    } catch {
      // The next build makes every file again.
    }
  }
}
