import { writeAside } from '../write-aside';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics';
import { SearchTermNumbers, searchFromStored, storedSearch } from './stored-search';
import type { CompletePage } from './page-record';
import type { ContentFile } from '../scan/scan';
import { fileDigest } from '../content-hash';
import { readBytes, readText, type StoredText } from './text-store';
import { compact, mostlyDead, SegmentWriter, type TextPlace } from './cache-segment';
import {
  INDEX_FILE,
  TERMS_FILE,
  indexLines,
  segmentsOf,
  type CachedPage,
  type IdentityLine,
  type IndexLine,
} from './cache-index';

/**
 * The page pass's results kept between builds, in the build's cache folder: a page whose file is
 * unchanged, built with the same settings and the same build code, whose images are unchanged and whose
 * missing images are still missing, is taken from here instead of being rendered again. The problems its
 * render reported come with it and are reported again, as they were (a page with an error is rendered
 * again: that build failed). What a page's links lead to is no part of its render: the site stage checks
 * every page's links on every build. Its fragment, markdown and search terms stay in the cache's
 * files until the stage that uses them reads them.
 *
 * `index.jsonl` lists the pages, one JSON line each after the identity's line (written line by line: a
 * large site's index never becomes one string); their texts are in `segment.<id>.bin` files, one
 * written by each build that rendered pages. Their search terms are stored by number (`storedSearch`),
 * the numbered terms in the `terms.<id>.json` file the identity's line names. A build reads the index once; once its pages are rendered
 * it writes a new segment and index (a failed build too: its pages without problems are as good as any)
 * and drops the segments the new index no longer names, or copies every live text into one segment
 * when there are many or they are mostly dead. A missing, unreadable or outdated cache only means pages
 * are rendered again: it never fails a build.
 */
/** Segments beyond this many, or holding more than twice the live texts, are merged into one. */
const MAX_SEGMENTS = 8;

/** What a page the build rendered leaves in the cache: its record and its code blocks' keys. */
export interface RenderedPage {
  page: CompletePage;
  code: string[];
}

/**
 * The hash of a page's fragment once the site stage has pointed its links to legacy heading ids
 * (site/page-records.ts), by the page file's relative path and a digest of the fragment's own hash and
 * those links: while both are the same, so is the hash, and a warm build need not read the fragment to
 * know it.
 */
export interface LinkedHashes {
  get(file: string, links: string): string | undefined;
  set(file: string, links: string, hash: string): void;
}

export { renderIdentity } from './cache-index';

export class RenderCache implements LinkedHashes {
  private readonly fds = new Map<string, number>();
  /** Pages reused by this build, by relative path, with where their texts are. */
  private readonly reusedEntries = new Map<string, CachedPage>();
  /** The linked hashes this build worked out or confirmed, by relative path, for the next one. */
  private readonly linked = new Map<string, [links: string, hash: string]>();

  /**
   * @param terms The numbered search terms of the cached pages, which the pages this build renders add to.
   * @param termsFile The file they were read from, '' when there was none.
   * @param lines Each entry's line as the index holds it: an entry this build leaves as it found it is
   * written back as it was read, rather than serialized again (a large site's index is tens of megabytes).
   */
  private constructor(
    private readonly dir: string,
    private readonly identity: string,
    private readonly entries: Record<string, CachedPage>,
    private readonly terms = new SearchTermNumbers(),
    private termsFile = '',
    private readonly lines: WeakMap<CachedPage, string> = new WeakMap(),
  ) {
    this.termsRead = terms.size;
  }

  /** How many terms the terms file holds. */
  private termsRead: number;

  /** The cache in `dir` for builds of this identity (`renderIdentity`); empty when there is none or it is another's. */
  static async open(dir: string, identity: string): Promise<RenderCache> {
    try {
      const lines = (await readFile(path.join(dir, INDEX_FILE), 'utf8')).split('\n');
      const [cachedFor, termsFile] = JSON.parse(lines[0] ?? '') as IdentityLine;
      if (cachedFor === identity && TERMS_FILE.test(termsFile)) {
        const terms = JSON.parse(await readFile(path.join(dir, termsFile), 'utf8')) as string[];
        const pages: Record<string, CachedPage> = {};
        const read = new WeakMap<CachedPage, string>();
        for (const line of lines.slice(1)) {
          if (line === '') continue;
          const [file, page] = JSON.parse(line) as IndexLine;
          pages[file] = page;
          read.set(page, line);
        }
        return new RenderCache(dir, identity, pages, new SearchTermNumbers(terms), termsFile, read);
      }
    } catch {
      // No cache yet, or an unreadable one: every page is rendered, and the cache written anew.
    }
    return new RenderCache(dir, identity, {});
  }

  /**
   * The records of the files that need no rendering, and the files that do, each list in the files'
   * order; with the code block keys of the reused pages and the problems their render reported.
   */
  reuse(files: readonly ContentFile[]): {
    reused: CompletePage[];
    render: ContentFile[];
    code: string[];
    problems: Diagnostic[];
  } {
    const reused: CompletePage[] = [];
    const render: ContentFile[] = [];
    const code: string[] = [];
    const problems: Diagnostic[] = [];
    for (const file of files) {
      const entry = this.entries[file.relativePath];
      if (entry && this.stillValid(file, entry)) {
        reused.push(this.record(file, entry));
        code.push(...entry.code);
        for (const problem of entry.problems) problems.push({ ...problem, file: file.relativePath });
        this.reusedEntries.set(file.relativePath, entry);
      } else render.push(file);
    }
    return { reused, render, code, problems };
  }

  /** The hash a reused page's fragment had with the same links in the build that cached it. */
  get(file: string, links: string): string | undefined {
    const known = this.reusedEntries.get(file)?.linked;
    return known?.[0] === links ? known[1] : undefined;
  }

  set(file: string, links: string, hash: string): void {
    this.linked.set(file, [links, hash]);
  }

  /**
   * Writes the cache for the next build: the reused pages as they are, and the rendered ones (whose
   * texts go into a new segment) with the problems the page pass reported in their files, except those
   * with an error. Errors are swallowed: the next build then renders more.
   */
  async save(rendered: readonly RenderedPage[], problems: readonly Diagnostic[]): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true });
      const pages: Record<string, CachedPage> = {};
      for (const [file, entry] of this.reusedEntries) pages[file] = entry;
      const problemsOf = new Map<string, Omit<Diagnostic, 'file'>[]>();
      for (const { file, ...problem } of problems) {
        const list = problemsOf.get(file);
        if (list) list.push(problem);
        else problemsOf.set(file, [problem]);
      }
      const kept = rendered.filter(({ page }) => {
        return !problemsOf.get(page.file.relativePath)?.some((problem) => problem.severity === 'error');
      });
      await this.writeSegment(kept, problemsOf, pages);
      for (const [file, [links, hash]] of this.linked) {
        const entry = pages[file];
        if (!entry || (entry.linked?.[0] === links && entry.linked[1] === hash)) continue;
        entry.linked = [links, hash];
        this.lines.delete(entry);
      }
      const live = Object.values(pages);
      const named = segmentsOf(live);
      // Merging moves the entries' texts (the entries change in place).
      if (named.size > MAX_SEGMENTS || (await mostlyDead(this.dir, named, live))) {
        await compact(this.dir, live, (place) => this.bytes(place));
        for (const entry of live) this.lines.delete(entry);
      }
      const keep = segmentsOf(live);
      await this.saveTerms();
      keep.add(this.termsFile);
      // A build that reads the cache meanwhile sees the old index or the new.
      await writeAside(path.join(this.dir, INDEX_FILE), indexLines([this.identity, this.termsFile], pages, this.lines));
      for (const name of await readdir(this.dir)) {
        const dropped = (name.startsWith('segment.') || TERMS_FILE.test(name)) && !keep.has(name);
        if (dropped) await rm(path.join(this.dir, name), { force: true });
      }
    } catch {
      // A cache that could not be written costs the next build time, never its result.
    }
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /**
   * Whether a cached page still holds. Synchronous: a stat is a few microseconds, far less than a trip
   * through the thread pool, and a large site checks thousands.
   */
  private stillValid(file: ContentFile, entry: CachedPage): boolean {
    try {
      const { source } = entry.record;
      const now = statSync(file.absolutePath);
      if (now.size !== source.size) return false;
      if (now.mtimeMs !== source.mtimeMs) {
        // Touched: unchanged if its bytes are, and then known by its new time from now on.
        if (fileDigest(readFileSync(file.absolutePath)) !== source.digest) return false;
        entry.record = { ...entry.record, source: { ...source, mtimeMs: now.mtimeMs } };
        this.lines.delete(entry);
      }
      for (const { absolutePath, size, mtimeMs } of entry.record.analysis.assets) {
        const copied = statSync(absolutePath);
        if (copied.size !== size || copied.mtimeMs !== mtimeMs) return false;
      }
      // An image that was missing and is there now changes the page, and takes its problem away.
      for (const uncopied of entry.record.analysis.uncopied) {
        if (statSync(uncopied, { throwIfNoEntry: false })?.isFile()) return false;
      }
      // Its texts must still be there: a segment another build removed means rendering the page again.
      for (const [segment] of [entry.html, entry.markdown, entry.search]) this.fd(segment);
      return true;
    } catch {
      return false;
    }
  }

  private record(file: ContentFile, entry: CachedPage): CompletePage {
    return {
      ...entry.record,
      file,
      html: this.text(entry.html),
      markdown: this.text(entry.markdown),
      search: { read: () => searchFromStored(this.bytes(entry.search), this.terms) },
    };
  }

  /**
   * Writes the numbered search terms to a new file when this build numbered more (a file, once named by
   * an index, never changes: a build that read that index reads the terms it numbered with).
   */
  private async saveTerms(): Promise<void> {
    if (this.termsFile !== '' && this.terms.size === this.termsRead) return;
    const name = `terms.${Date.now().toString(36)}.${randomBytes(4).toString('hex')}.json`;
    await writeFile(path.join(this.dir, name), JSON.stringify(this.terms.list), { flag: 'wx' });
    this.termsFile = name;
    this.termsRead = this.terms.size;
  }

  private text([segment, offset, bytes]: TextPlace): StoredText {
    return { read: () => this.read(segment, offset, bytes) };
  }

  private read(segment: string, offset: number, bytes: number): string {
    return readText(this.fd(segment), offset, bytes, `render cache segment ${segment}`);
  }

  private bytes([segment, offset, bytes]: TextPlace): Buffer {
    return readBytes(this.fd(segment), offset, bytes, `render cache segment ${segment}`);
  }

  /** A segment, opened once: it stays readable while this build runs, even if another build removes it. */
  private fd(segment: string): number {
    let fd = this.fds.get(segment);
    if (fd === undefined) {
      fd = openSync(path.join(this.dir, segment), 'r');
      this.fds.set(segment, fd);
    }
    return fd;
  }

  /** Writes the rendered pages' texts into a new segment and lists them in `pages`, with their problems. */
  private async writeSegment(
    rendered: readonly RenderedPage[],
    problemsOf: ReadonlyMap<string, Omit<Diagnostic, 'file'>[]>,
    pages: Record<string, CachedPage>,
  ): Promise<void> {
    if (rendered.length === 0) return;
    const segment = await SegmentWriter.create(this.dir);
    try {
      for (const { page, code } of rendered) {
        const { file, html, markdown, search, ...record } = page;
        pages[file.relativePath] = {
          record,
          problems: problemsOf.get(file.relativePath) ?? [],
          html: await segment.put(html.read()),
          markdown: await segment.put(markdown.read()),
          search: await segment.put(storedSearch(search.read(), this.terms)),
          code,
        };
      }
    } finally {
      await segment.close();
    }
  }
}
