import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics';
import { STORED_SEARCH_FORMAT, SearchTermNumbers, searchFromStored, storedSearch } from './stored-search';
import type { CompletePage } from './page-record';
import type { ContentFile } from '../scan/scan';
import { fileDigest, sourceDigest } from '../content-hash';
import { readBytes, readText, type StoredText } from './text-store';

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
const INDEX_FILE = 'index.jsonl';
const FORMAT = 5;
/** Segments beyond this many, or holding more than twice the live texts, are merged into one. */
const MAX_SEGMENTS = 8;

/** Where a text is: its segment, its byte offset and its length in bytes. */
type TextPlace = [segment: string, offset: number, bytes: number];

/**
 * A page as the cache keeps it. Its record says what it was made from: the file's stamp (`source`), the
 * stamps of the files it copies (`analysis.assets`) and the files it names but did not copy
 * (`analysis.uncopied`).
 */
interface CachedPage {
  record: Omit<CompletePage, 'file' | 'html' | 'markdown' | 'search'>;
  /** The problems the page pass reported in the page's file, in the order it reported them. */
  problems: Omit<Diagnostic, 'file'>[];
  html: TextPlace;
  markdown: TextPlace;
  search: TextPlace;
  /** Keys of the page's highlighted code blocks, which the highlight cache keeps while the page is reused. */
  code: string[];
  /** The fragment's hash once its legacy links were pointed, and which links those were (`LinkedHashes`). */
  linked?: [links: string, hash: string];
}

/** The index's first line: the identity of the builds it is for, and the file of its numbered search terms. */
type IdentityLine = [identity: string, terms: string];

/** An index line after the first: a page file's relative path and what the cache holds of it. */
type IndexLine = [file: string, page: CachedPage];

const TERMS_FILE = /^terms\.[0-9a-z.]+\.json$/;

/** What a page the build rendered leaves in the cache: its record and its code blocks' keys. */
export interface RenderedPage {
  page: CompletePage;
  code: string[];
}

/**
 * The hash of a page's fragment once the render stage has pointed its links to legacy heading ids
 * (render/render-pages.ts), by the page file's relative path and a digest of the fragment's own hash and
 * those links: while both are the same, so is the hash, and a warm build need not read the fragment to
 * know it.
 */
export interface LinkedHashes {
  get(file: string, links: string): string | undefined;
  set(file: string, links: string, hash: string): void;
}

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
      if (named.size > MAX_SEGMENTS || (await this.mostlyDead(named, live))) {
        await this.compact(pages);
        for (const entry of live) this.lines.delete(entry);
      }
      const keep = segmentsOf(live);
      await this.saveTerms();
      keep.add(this.termsFile);
      // Written aside and renamed: a build that reads the cache meanwhile sees the old index or the new.
      const partial = path.join(this.dir, `${INDEX_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`);
      await writeFile(partial, indexLines([this.identity, this.termsFile], pages, this.lines));
      await rename(partial, path.join(this.dir, INDEX_FILE));
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

  private async mostlyDead(segments: Set<string>, live: CachedPage[]): Promise<boolean> {
    let total = 0;
    for (const segment of segments) total += (await stat(path.join(this.dir, segment))).size;
    const used = live.reduce((n, entry) => n + entry.html[2] + entry.markdown[2] + entry.search[2], 0);
    return total > 2 * used;
  }

  /** Copies every live text into one new segment. */
  private async compact(pages: Record<string, CachedPage>): Promise<void> {
    const segment = await SegmentWriter.create(this.dir);
    try {
      const move = (place: TextPlace) => segment.put(this.bytes(place));
      for (const entry of Object.values(pages)) {
        entry.html = await move(entry.html);
        entry.markdown = await move(entry.markdown);
        entry.search = await move(entry.search);
      }
    } finally {
      await segment.close();
    }
  }
}

/** A new segment file, written in batches of about a megabyte. */
class SegmentWriter {
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

/** The segments some entries' texts are in. */
function segmentsOf(entries: readonly CachedPage[]): Set<string> {
  return new Set(entries.flatMap((entry) => [entry.html[0], entry.markdown[0], entry.search[0]]));
}

/** The index file's lines, in batches of about a megabyte. */
function* indexLines(
  identity: IdentityLine,
  pages: Record<string, CachedPage>,
  read: WeakMap<CachedPage, string>,
): Generator<string> {
  let batch = `${JSON.stringify(identity)}\n`;
  for (const line of Object.entries(pages)) {
    batch += `${read.get(line[1]) ?? JSON.stringify(line satisfies IndexLine)}\n`;
    if (batch.length >= 1 << 20) {
      yield batch;
      batch = '';
    }
  }
  yield batch;
}

/**
 * What a page's render depends on besides its file and its images: the cache's format, the content
 * folder, the site's settings, and the build's own code (the Node side of `src/` and the locked package
 * versions). Any change renders every page again.
 */
export function renderIdentity(srcDir: string, contentDir: string, settings: unknown): string {
  const preamble = `${FORMAT}.${STORED_SEARCH_FORMAT}\0${path.resolve(contentDir)}\0${JSON.stringify(settings)}`;
  return sourceDigest(srcDir, ['node', 'shared', '../package-lock.json'], preamble);
}
