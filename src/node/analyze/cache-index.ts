import { readFileSync, type Stats } from 'node:fs';
import { digestOfAll, fileDigest, sourceDigest } from '../content-hash';
import type { Diagnostic } from '../diagnostics';
import { SearchTermNumbers, STORED_SEARCH_FORMAT } from './stored-search';
import type { PlaceFreeRecord } from './page-place';
import type { PageSettings } from './page-source';
import type { TextPlace } from './text-store';

/** The render cache's index of pages, in the cache folder. */
export const INDEX_FILE = 'index.jsonl';
const FORMAT = 6;

/** Builds (saves of the cache) after which an entry or a file's stamp nobody used is forgotten. */
const KEPT_FOR_SAVES = 8;

/**
 * A page as the cache keeps it, made once for every version whose page is made of the same: the same file
 * bytes at the same relative path (its key), the same values of the constants its text names, the same
 * bytes of its images, its missing images still missing. Its record names its files from its own folder
 * (`placeFree`) and its links with `BASE_PLACEHOLDER`.
 */
export interface CachedPage {
  record: PlaceFreeRecord;
  /** The constants its text names (`{{ NAME }}`), with the values it was made with (null: not a constant). */
  constants: [name: string, value: string | null][];
  /** The digests of its images and files (`record.analysis.assets`), in their order. */
  assets: string[];
  /** The problems the page pass reported in the page's file, in the order it reported them. */
  problems: Omit<Diagnostic, 'file'>[];
  /**
   * For a page with problems, what else they depend on: whether content problems were errors, and for
   * the home page its content folder's name (it is named after it when it has no title).
   */
  madeIn?: [strict: boolean, folder: string];
  html: TextPlace;
  markdown: TextPlace;
  search: TextPlace;
  /** Keys of the page's highlighted code blocks, which the highlight cache keeps while the page is reused. */
  code: string[];
}

/** An entry as the index holds it: its page, read once it is asked for, and the last save that used it. */
export interface IndexEntry {
  used: number;
  line: string;
  page?: CachedPage;
}

/** A file's stamp: its size and time when its digest was taken, so an unchanged file is not read again. */
export interface FileStamp {
  used: number;
  size: number;
  mtimeMs: number;
  digest: string;
}

/** The segments some pages' texts are in. */
export function segmentsOf(pages: readonly CachedPage[]): Set<string> {
  return new Set(pages.flatMap((page) => [page.html[0], page.markdown[0], page.search[0]]));
}

/**
 * The key of a page's entries: its relative path, its bytes and the settings that change any page's HTML
 * (not the base, not the constants: each entry names those it uses).
 */
export function pageKey(relativePath: string, digest: string, settings: PageSettings): string {
  const changeHtml = [settings.embeds ?? null, settings.lineNumbers ?? false];
  return digestOfAll([relativePath, digest, JSON.stringify(changeHtml)]);
}

/**
 * The index: its first line the identity of the builds it is for and the number of the save that wrote
 * it; then a line per entry (`p`, the save that last used it, its key, its JSON) and per file stamp (`f`,
 * the save that last used it, size, time, digest, path); last the numbered search terms (`t`), so that an
 * index and the terms its entries are numbered with are written as one. An entry's JSON is parsed only
 * when a build asks for its key, and written back as it was read unless it changed.
 */
export class PageIndex {
  readonly pages = new Map<string, IndexEntry[]>();
  readonly files = new Map<string, FileStamp>();

  constructor(
    readonly identity: string,
    /** The numbered search terms of the cached pages (`storedSearch`), which the pages a build makes add to. */
    readonly terms = new SearchTermNumbers(),
    /** The number of this build's save. */
    readonly save = 1,
  ) {}

  /** The index in `text` for builds of `identity`; undefined when it is another's or unreadable. */
  static parse(text: string, identity: string): PageIndex | undefined {
    const lines = text.split('\n');
    const [cachedFor, save] = JSON.parse(lines[0] ?? '') as [string, number];
    // The terms are the last line: an index cut short has none.
    const termsLine = lines.at(-2);
    if (cachedFor !== identity || typeof save !== 'number' || !termsLine?.startsWith('t\t')) return undefined;
    const index = new PageIndex(identity, new SearchTermNumbers(JSON.parse(termsLine.slice(2)) as string[]), save + 1);
    for (const line of lines.slice(1)) {
      const fields = line.split('\t');
      const used = Number(fields[1]);
      if (fields[0] === 'p' && fields.length === 4) {
        const entries = index.pages.get(fields[2] ?? '') ?? [];
        entries.push({ used, line: fields[3] ?? '' });
        index.pages.set(fields[2] ?? '', entries);
      } else if (fields[0] === 'f' && fields.length >= 6) {
        const [size, mtimeMs, digest] = [Number(fields[2]), Number(fields[3]), fields[4] ?? ''];
        index.files.set(fields.slice(5).join('\t'), { used, size, mtimeMs, digest });
      }
    }
    return index;
  }

  /** The page of an entry, parsed once. */
  page(entry: IndexEntry): CachedPage {
    entry.page ??= JSON.parse(entry.line) as CachedPage;
    return entry.page;
  }

  /** Takes the changes of an entry's page into its line. */
  rewrite(entry: IndexEntry): void {
    entry.line = JSON.stringify(this.page(entry));
  }

  /**
   * The digest of a file as `stats` find it: its stamp's when its size and time are the stamp's, else
   * read (and stamped).
   */
  digestOf(file: string, stats: Stats): string {
    const stamp = this.files.get(file);
    if (stamp && stamp.size === stats.size && stamp.mtimeMs === stats.mtimeMs) {
      stamp.used = this.save;
      return stamp.digest;
    }
    const digest = fileDigest(readFileSync(file));
    this.files.set(file, { used: this.save, size: stats.size, mtimeMs: stats.mtimeMs, digest });
    return digest;
  }

  /** Adds an entry under `key`, in place of one that holds for the same constants, images and problems. */
  add(key: string, page: CachedPage): IndexEntry {
    const same = (other: CachedPage) =>
      JSON.stringify([other.constants, other.assets, other.madeIn]) ===
      JSON.stringify([page.constants, page.assets, page.madeIn]);
    const kept = (this.pages.get(key) ?? []).filter((entry) => !same(this.page(entry)));
    const entry = { used: this.save, line: JSON.stringify(page), page };
    this.pages.set(key, [entry, ...kept]);
    return entry;
  }

  /** The entries this save keeps: those used by one of the last saves. */
  live(): IndexEntry[] {
    return [...this.pages.values()].flat().filter((entry) => this.keeps(entry.used));
  }

  /** Whether this save keeps an entry or a file's stamp last used by save `used`. */
  private keeps(used: number): boolean {
    return this.save - used < KEPT_FOR_SAVES;
  }

  /** The index file's lines, in batches of about a megabyte. */
  *lines(): Generator<string> {
    let batch = `${JSON.stringify([this.identity, this.save])}\n`;
    const flush = function* () {
      if (batch.length < 1 << 20) return;
      yield batch;
      batch = '';
    };
    for (const [key, entries] of this.pages) {
      for (const entry of entries) {
        if (!this.keeps(entry.used)) continue;
        batch += `p\t${entry.used}\t${key}\t${entry.line}\n`;
        yield* flush();
      }
    }
    for (const [file, { used, size, mtimeMs, digest }] of this.files) {
      if (!this.keeps(used)) continue;
      batch += `f\t${used}\t${size}\t${mtimeMs}\t${digest}\t${file}\n`;
      yield* flush();
    }
    yield `${batch}t\t${JSON.stringify(this.terms.list)}\n`;
  }
}

/**
 * What every page's render depends on besides what its entry says: the cache's format and the build's own
 * code (the Node side of `src/` and the locked package versions). Any change renders every page again.
 */
export function renderIdentity(srcDir: string): string {
  return sourceDigest(srcDir, ['node', 'shared', '../package-lock.json'], `${FORMAT}.${STORED_SEARCH_FORMAT}`);
}
