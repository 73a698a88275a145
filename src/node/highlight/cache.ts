import { writeAside } from '../write-aside';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { packageVersion } from '../package-version';
import { HIGHLIGHT_HTML_FORMAT, THEMES } from './themes';

/** A code block's cache key: everything its HTML depends on. */
export function highlightKey(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
  return createHash('sha1')
    .update(`${THEMES.light}\0${THEMES.dark}\0${lang}\0${[...highlightedLines].join(',')}\0${code}`)
    .digest('base64url');
}

/**
 * What the cached HTML was made with. A shiki upgrade can change the HTML of unchanged code (grammars,
 * theme colours), so a cache written by another version is dropped whole. Drawings the page pass caches
 * here (`CodeHighlighting.drawn`) carry their renderer's version in their keys instead.
 */
const CACHE_IDENTITY = `shiki ${packageVersion('shiki')} ${THEMES.light} ${THEMES.dark} html ${HIGHLIGHT_HTML_FORMAT}`;

/** The cache file: the identity it was written with and the HTML of each code block by key. */
interface CacheFile {
  identity: string;
  entries: Record<string, string>;
}

/**
 * Highlighted code blocks by content hash, and the diagrams the page pass draws by theirs (diagram.ts), kept between builds in one JSON file. Only the entries a build
 * used are written back, so the file never grows beyond one site's code. Each thread that makes pages
 * reads it; the build's own thread keeps what the others made (`PageHighlighter`) and writes it back.
 */
export class HighlightCache {
  private stored = new Map<string, string>();
  private readonly used = new Map<string, string>();

  /** The file it is read from and saved to; none for a cache that lives only as long as the build. */
  private constructor(readonly file: string | undefined) {}

  /** The cache of `file` (none: a cache that is never saved); an unreadable or outdated file starts empty. */
  static async load(file?: string): Promise<HighlightCache> {
    const cache = new HighlightCache(file);
    if (!file) return cache;
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheFile>;
      if (parsed.identity === CACHE_IDENTITY && parsed.entries) cache.stored = new Map(Object.entries(parsed.entries));
    } catch {
      // No cache yet, or an unreadable one: start empty, it is rebuilt on save.
    }
    return cache;
  }

  /** Entries read from the file: none on a cold build. */
  get size(): number {
    return this.stored.size;
  }

  get(key: string): string | undefined {
    return this.used.get(key) ?? this.stored.get(key);
  }

  /** The HTML of an entry this build made, rather than read from the file; undefined for any other. */
  madeHere(key: string): string | undefined {
    return this.stored.has(key) ? undefined : this.used.get(key);
  }

  /** Marks an entry as used by this build (and a new one as known). */
  record(key: string, html: string): void {
    this.used.set(key, html);
  }

  /** Writes what this build used; nothing when that is exactly what the file holds (a build with no new code). */
  async save(): Promise<void> {
    if (!this.file) return;
    if (this.used.size === this.stored.size && [...this.used.keys()].every((key) => this.stored.has(key))) return;
    // Concurrent builds never read a half-written cache.
    const contents: CacheFile = { identity: CACHE_IDENTITY, entries: Object.fromEntries(this.used) };
    await writeAside(this.file, JSON.stringify(contents));
  }
}
