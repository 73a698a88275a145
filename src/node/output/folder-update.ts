import { existsSync, readdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { OutputLedger } from './output-ledger';
import { outputMoment } from './test-kill-hook';

/** What a file is written as beside its place until the update is committed; never a file of the site. */
const REPLACEMENT_SUFFIX = `.replacing-${process.pid}`;

/**
 * One build's update of an output folder, in place, all of it or none of it. A file unchanged since the
 * previous build (the ledger says so) is left as it is. Any other file is written beside its place and
 * moved there when the whole build has been written, but for a new file nothing reaches until a file moved
 * later names it (a hashed file, which only the deployment pointer leads to): that one is written in its
 * place straight away. So until `commit`, readers of the folder see the previous build, and `rollback`
 * takes the folder back to exactly that; a build killed before then leaves only files the next one sweeps.
 *
 * `commit` moves the files into place in their `order`, which the writer gives (the site's files in their
 * order, output/site-files.ts: the deployment pointer after the data it names and before the documents),
 * whatever order they were written in, then removes every file this build did not write or keep, and the
 * folders left empty. At thousands of pages, a one-page change then touches a few thousand
 * files rather than rewriting tens of thousands and their folders.
 */
export class FolderUpdate {
  /** Every file of this build, by its relative path. */
  private readonly files = new Set<string>();
  /** Files written beside their place: where each is written, its place, and its place in the commit order. */
  private readonly replacements: { replacement: string; file: string; order: number }[] = [];
  /** Where each of those is until commit, by its relative path. */
  private readonly aside = new Map<string, string>();
  /** Files written in their place, and folders made for them: what a rollback removes. */
  private readonly created: string[] = [];
  private readonly madeFolders: string[] = [];
  /** Every folder this build made: nothing was in them before, so a file there is new without asking the disk. */
  private readonly newFolders = new Set<string>();

  private constructor(
    readonly root: string,
    private readonly ledger: OutputLedger,
    /** Folders (relative, normal) that other updates own: never swept. */
    private readonly nested: readonly string[],
  ) {}

  /** An update of `target`, whose ledger is kept in `cacheDir`; the `nested` folders are others' to update. */
  static async open(target: string, cacheDir: string, nested: readonly string[] = []): Promise<FolderUpdate> {
    const root = path.resolve(target);
    const folders = nested.map((folder) => path.normalize(folder).replace(/[\\/]+$/, ''));
    return new FolderUpdate(root, await OutputLedger.open(cacheDir, root), folders);
  }

  /** Whether `relative` stays as the previous build left it: made from the same `key`, and untouched. */
  keep(relative: string, key: string): boolean {
    if (!this.ledger.unchanged(relative, key)) return false;
    this.files.add(path.normalize(relative));
    return true;
  }

  /**
   * Whether `relative` is as the previous build left it, made from `key` and untouched since (the disk
   * asked), for a build that reads it back; whether it is kept is still `keep`'s or `placeFor`'s.
   */
  asLeft(relative: string, key: string): boolean {
    return this.ledger.unchanged(relative, key);
  }

  /** Whether `relative` is likely kept: the previous build made it from `key` (the disk is not asked). */
  likelyKept(relative: string, key: string): boolean {
    return this.ledger.madeFrom(relative, key);
  }

  /**
   * Where to write `relative`, whose place is `file`: beside it until commit, or in its place when it is
   * new and `reachedLater`: nothing leads a reader to it but a file moved into place later. `order` is its
   * place in the order `commit` moves files into place; by default the order they are written in.
   */
  placeFor(relative: string, file: string, reachedLater = false, order = this.replacements.length): string {
    outputMoment('write');
    const normal = path.normalize(relative);
    this.files.add(normal);
    if (reachedLater && (this.newFolders.has(path.dirname(file)) || !existsSync(file))) {
      this.created.push(file);
      return file;
    }
    const replacement = file + REPLACEMENT_SUFFIX;
    this.replacements.push({ replacement, file, order });
    this.aside.set(normal, replacement);
    return replacement;
  }

  /**
   * The file that holds this build's bytes of `relative` until commit: where it is written beside its
   * place, else its place (written there, or kept). What another file links to must be these bytes.
   */
  fileOf(relative: string): string {
    return this.aside.get(path.normalize(relative)) ?? path.join(this.root, relative);
  }

  /**
   * Notes the folders made for this build's files: `made` is `mkdirSync`'s answer (the first folder it
   * made, if any) for `folder`, so `folder` and those between the two are new.
   */
  madeFolder(made: string | undefined, folder: string): void {
    if (!made) return;
    this.madeFolders.push(made);
    for (let at = folder; at.length >= made.length; at = path.dirname(at)) this.newFolders.add(at);
  }

  /** Notes that the file of `relative` was written, made from `key`. */
  wrote(relative: string, key: string): void {
    this.ledger.wrote(relative, key);
  }

  /**
   * Moves the replacements into place in their order, removes what this build did not write, and saves
   * the ledger.
   */
  async commit(): Promise<void> {
    // A stable sort: files of one place in the order keep the order they were written in.
    const inOrder = [...this.replacements].sort((a, b) => a.order - b.order);
    for (const { replacement, file } of inOrder) {
      outputMoment('rename');
      // In order, one after the other, on this thread: a rename is cheaper than a trip to the thread pool.
      renameSync(replacement, file);
    }
    outputMoment('sweep');
    this.sweep();
    outputMoment('ledger');
    await this.ledger.save();
  }

  /** Takes the folder back to the previous build: the replacements and new files go, and new folders. */
  async rollback(): Promise<void> {
    const files = [...this.replacements.map(({ replacement }) => replacement), ...this.created];
    await Promise.all(files.map((file) => unlink(file).catch(() => undefined)));
    for (const folder of this.madeFolders.reverse()) await rm(folder, { recursive: true, force: true });
  }

  /** Removes every file but this build's (a removed page's, an old hashed file, a leftover), and empty folders. */
  private sweep(): void {
    const needed = new Set<string>();
    for (const file of this.files) {
      for (let folder = path.dirname(file); folder !== '.' && !needed.has(folder); folder = path.dirname(folder))
        needed.add(folder);
    }
    const folders: string[] = [];
    if (!existsSync(this.root)) return;
    // A folder at a time, so that the nested sites' folders (other versions, each as large as this site)
    // are never read.
    const nested = new Set(this.nested);
    const walk = (folder: string) => {
      for (const entry of readdirSync(path.join(this.root, folder), { withFileTypes: true })) {
        const relative = folder + entry.name;
        if (entry.isDirectory()) {
          if (nested.has(relative)) continue;
          if (!needed.has(relative)) folders.push(relative);
          walk(relative + path.sep);
        } else if (!this.files.has(relative)) {
          unlinkSync(path.join(this.root, relative));
        }
      }
    };
    walk('');
    // Deepest first, so a folder is empty by the time it is removed.
    folders.sort((a, b) => b.length - a.length);
    for (const folder of folders) {
      try {
        rmdirSync(path.join(this.root, folder));
      } catch {
        // Not empty after all (written to meanwhile): left for the next build's sweep.
      }
    }
  }
}
