import { writeAside } from '../write-aside';
import { statSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics';
import { storedPlaceOf, storedSearchAt, storedSearchSink, type SearchSink } from './stored-search';
import type { CompletePage } from './page-record';
import type { PageSettings } from './page-source';
import type { ContentFile } from '../scan/scan';
import type { TextStore } from './text-store';
import { filesNamed, homeFolderName, madeOf, placed, placeFree, type FileStats } from './page-place';
import { INDEX_FILE, PageIndex, pageKey, segmentsOf, type CachedPage, type IndexEntry } from './cache-index';

/**
 * The page pass's results kept between builds, in one folder for every version of the site and for
 * `npm run dev`: a page is taken from here instead of being made again when it is made of the same
 * (cache-index.ts, `CachedPage`): the same bytes at the same path, the same constants, images and
 * settings, by the same build code. Not its content folder nor its base: the same page in two versions is
 * made once. The problems its making reported come with it and are reported again, as they were (a
 * page with an error is made again: that build failed). What a page's links lead to is no part of it:
 * the site stage checks every page's links on every build. Its fragment, markdown and search terms stay
 * in the cache's segments until the stage that uses them reads them.
 *
 * A file's stat is the fast path to its digest (`PageIndex.digestOf`): an unchanged file is not read.
 * A build reads the index once; once its pages are made it writes a new segment and index (a failed
 * build too: its pages without errors are as good as any) and drops the segments the new index no
 * longer names, or copies every live text into one segment when there are many or they are mostly dead.
 * A missing, unreadable or outdated cache only means pages are made again: it never fails a build.
 */
/** Segments beyond this many, or holding more than twice the live texts, are merged into one. */
const MAX_SEGMENTS = 8;

/** What a page the build made leaves in the cache: its record and its code blocks' keys. */
export interface RenderedPage {
  page: CompletePage;
  code: string[];
}

/** A page made for the build of another site sharing the cache (a later version), with its problems there. */
export interface AheadPage extends RenderedPage {
  problems: Diagnostic[];
}

export class RenderCache {
  private constructor(
    /** Where the cache's texts are, and the pages this build makes put theirs: the cache is in its folder. */
    private readonly texts: TextStore,
    private readonly index: PageIndex,
    private readonly settings: PageSettings,
  ) {}

  /**
   * The cache in the folder of `texts` for builds of this identity (`renderIdentity`), for pages made
   * with `settings` (any base: pages are made base-free); empty when there is none or it is another's.
   * Its index is the one `ofBuild` read for the first site of the build that makes this one.
   */
  static async open(
    texts: TextStore,
    identity: string,
    settings: PageSettings,
    ofBuild: BuildCacheIndex,
  ): Promise<RenderCache> {
    return new RenderCache(texts, await ofBuild.read(texts.dir, identity), settings);
  }

  /**
   * The records of the files that need no making, and the files that do, each list in the files'
   * order; with the code block keys of the reused pages and the problems their making reported.
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
      const found = this.find(file);
      if (found) {
        const cached = this.index.page(found.entry);
        reused.push(found.page);
        code.push(...cached.code);
        for (const problem of cached.problems) problems.push({ ...problem, file: file.relativePath });
      } else render.push(file);
    }
    return { reused, render, code, problems };
  }

  /**
   * Writes the cache for the next build: the pages this build made (their texts into a new segment, as
   * made: base-free) with the problems the page pass reported in their files, except those with an
   * error, beside every entry a recent build used. Errors are swallowed: the next build then makes more.
   */
  async save(
    made: readonly RenderedPage[],
    problems: readonly Diagnostic[],
    /** Pages made for the builds of other sites sharing the cache, each with its own problems. */
    ahead: readonly AheadPage[] = [],
  ): Promise<void> {
    try {
      const problemsOf = new Map<string, Omit<Diagnostic, 'file'>[]>();
      for (const { file, ...problem } of problems) {
        const list = problemsOf.get(file);
        if (list) list.push(problem);
        else problemsOf.set(file, [problem]);
      }
      const kept = made.filter(
        ({ page }) => !problemsOf.get(page.file.relativePath)?.some((problem) => problem.severity === 'error'),
      );
      this.addMade(kept, problemsOf);
      // One at a time: two later versions may each have their own page at the same path.
      for (const { problems, ...page } of ahead) {
        if (problems.some((problem) => problem.severity === 'error')) continue;
        this.addMade(
          [page],
          new Map([[page.page.file.relativePath, problems.map(({ file: _file, ...rest }) => rest)]]),
        );
      }
      const live = this.index.live();
      const pages = live.map((entry) => this.index.page(entry));
      const named = segmentsOf(pages);
      // Merging moves the entries' texts (the entries change in place).
      if (named.size > MAX_SEGMENTS || (await mostlyDead(this.texts.dir, named, pages))) {
        for (const entry of live) {
          const page = this.index.page(entry);
          for (const text of ['html', 'markdown', 'search'] as const)
            page[text] = this.texts.put(this.texts.bytes(page[text])).place;
          this.index.rewrite(entry);
        }
      }
      const keep = segmentsOf(pages);
      this.texts.keepIfNamed(keep);
      // A build that reads the cache meanwhile sees the old index or the new.
      await writeAside(path.join(this.texts.dir, INDEX_FILE), this.index.lines());
      for (const name of await readdir(this.texts.dir)) {
        if (name.startsWith('segment.') && !keep.has(name)) await rm(path.join(this.texts.dir, name), { force: true });
      }
    } catch {
      // A cache that could not be written costs the next build time, never its result.
    }
  }

  /**
   * Where the pages this build makes put their search terms: in the store, numbered by this cache's terms,
   * as the cache keeps them. So a made page's terms are turned into that form once, as it is made, and
   * the search index reads them back as it reads a cached page's.
   */
  searchSink(): SearchSink {
    return storedSearchSink(this.texts, this.index.terms);
  }

  /**
   * A cached page made of what `file` is made of now, as this version has it; synchronous: a stat is a
   * few microseconds, far less than a trip through the thread pool, and a large site checks thousands.
   */
  private find(file: ContentFile): { page: CompletePage; entry: IndexEntry } | undefined {
    try {
      const stats = statSync(file.absolutePath);
      const digest = this.index.digestOf(file.absolutePath, stats);
      const entries = this.index.pages.get(pageKey(file.relativePath, digest, this.settings)) ?? [];
      for (const entry of entries) {
        const cached = this.index.page(entry);
        const assets = this.assetsNow(file, cached);
        if (!assets) continue;
        entry.used = this.index.save;
        const page: CompletePage = {
          ...placed(cached.record, file.absolutePath, assets),
          source: { size: stats.size, mtimeMs: stats.mtimeMs, digest },
          file,
          html: this.texts.at(cached.html),
          markdown: this.texts.at(cached.markdown),
          search: storedSearchAt(this.texts, cached.search, this.index.terms),
        };
        return { page, entry };
      }
    } catch {
      // A file gone meanwhile, or a segment another build removed: the page is made again.
    }
    return undefined;
  }

  /** The stats of the entry's images beside `file`, when the entry holds for it; else undefined. */
  private assetsNow(file: ContentFile, entry: CachedPage): FileStats[] | undefined {
    const { constants, strict } = this.settings;
    if (entry.madeIn && (entry.madeIn[0] !== strict || entry.madeIn[1] !== homeFolderName(file))) return undefined;
    if (entry.constants.some(([name, value]) => (constants[name] ?? null) !== value)) return undefined;
    const named = filesNamed(entry.record, file.absolutePath);
    const stats = [];
    for (const [i, asset] of named.assets.entries()) {
      const now = statSync(asset, { throwIfNoEntry: false });
      if (!now?.isFile() || this.index.digestOf(asset, now) !== entry.assets[i]) return undefined;
      stats.push({ size: now.size, mtimeMs: now.mtimeMs });
    }
    // An image that was missing and is there now changes the page, and takes its problem away.
    if (named.uncopied.some((missing) => statSync(missing, { throwIfNoEntry: false })?.isFile())) return undefined;
    // Its texts must still be there: a segment another build removed means making the page again.
    for (const [segment] of [entry.html, entry.markdown, entry.search]) this.texts.open(segment);
    return stats;
  }

  /**
   * Adds the made pages to the index, with where their texts are, their problems and what they are made
   * of. A page whose file or images changed since they were read is left out.
   */
  private addMade(made: readonly RenderedPage[], problemsOf: ReadonlyMap<string, Omit<Diagnostic, 'file'>[]>): void {
    for (const { page, code } of made) {
      const { file, html, markdown, search, ...record } = page;
      const made = madeOf(page, this.settings.constants, (file, stats) => this.index.digestOf(file, stats));
      if (!made) continue;
      const problems = problemsOf.get(file.relativePath) ?? [];
      const cached: CachedPage = {
        record: placeFree(record, file.absolutePath),
        ...made,
        problems,
        ...(problems.length > 0 ? { madeIn: [this.settings.strict, homeFolderName(file)] } : {}),
        html: this.texts.placeOf(html),
        markdown: this.texts.placeOf(markdown),
        search: storedPlaceOf(search, this.texts, this.index.terms),
        code,
      };
      const key = pageKey(file.relativePath, page.source.digest, this.settings);
      this.index.add(key, cached);
    }
  }
}

/**
 * The cache's index as one build reads it: once, for every site the build makes. A site and the versions
 * built with it share the cache folder and are built one after the other; each adds its pages to the
 * index and saves it, so the next finds in memory what it would read back. The index then counts one
 * save a build, however many versions: an entry only a version kept as it is leaves unused is forgotten
 * after as many builds as any other.
 */
export class BuildCacheIndex {
  private readonly indexes = new Map<string, Promise<PageIndex>>();

  /**
   * The index in the cache folder `dir` for builds of `identity`, read the first time it is asked for;
   * empty when there is none or it is another's.
   */
  read(dir: string, identity: string): Promise<PageIndex> {
    const key = JSON.stringify([dir, identity]);
    const index =
      this.indexes.get(key) ??
      readFile(path.join(dir, INDEX_FILE), 'utf8')
        .then((text) => PageIndex.parse(text, identity))
        // No cache yet, or an unreadable one: every page is made, and the cache written anew.
        .catch(() => undefined)
        .then((index) => index ?? new PageIndex(identity));
    this.indexes.set(key, index);
    return index;
  }
}

/** Whether the segments hold more than twice the bytes of the texts still used. */
async function mostlyDead(dir: string, segments: Set<string>, live: readonly CachedPage[]): Promise<boolean> {
  let total = 0;
  for (const segment of segments) total += (await stat(path.join(dir, segment))).size;
  const used = live.reduce((n, entry) => n + entry.html[2] + entry.markdown[2] + entry.search[2], 0);
  return total > 2 * used;
}
