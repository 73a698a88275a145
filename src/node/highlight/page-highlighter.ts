import path from 'node:path';
import type { BuildHighlighting, HighlightedBlock, ThreadHighlighting } from '../analyze/markdown/code-blocks';
import { HighlightCache } from './cache';
import { CodeHighlighter, plainCodeHtml } from './code-highlighter';
import { isKnownLanguage, isPlainLanguage } from './languages';
import { compileRegexEngine } from './regex-engine';

/**
 * How a page's code is highlighted, decided in one place: each block as the page pass meets it, on the
 * thread that makes the page, from the highlight cache when it holds the block (kept between builds by
 * the block's text, in the build's cache folder) and by shiki otherwise. shiki is started when the first
 * page with code to colour comes, and loads a grammar when a page first names its language: a build
 * whose pages all come from the render cache never starts it.
 */
export class PageHighlighter implements BuildHighlighting {
  private starting: Promise<CodeHighlighter> | undefined;
  private shiki: CodeHighlighter | undefined;
  private compiled: Promise<WebAssembly.Module> | undefined;

  private constructor(
    private readonly cacheDir: string | undefined,
    private readonly cache: HighlightCache,
    wasm: WebAssembly.Module | undefined,
  ) {
    this.compiled = wasm && Promise.resolve(wasm);
  }

  /**
   * The highlighter of a build or of `npm run dev`, with the highlight cache of `cacheDir` (none: a cache
   * that lives as long as the highlighter). `wasm` is shiki's regular-expression engine compiled once
   * (`compileRegexEngine`), which a page thread is given rather than compiling its own.
   */
  static async load(cacheDir: string | undefined, wasm?: WebAssembly.Module): Promise<PageHighlighter> {
    const cache = await HighlightCache.load(cacheDir && highlightCacheFile(cacheDir));
    return new PageHighlighter(cacheDir, cache, wasm);
  }

  /** Whether the cache was empty: a cold build, whose every block needs shiki. */
  get cold(): boolean {
    return this.cache.size === 0;
  }

  knows(lang: string): boolean {
    return isKnownLanguage(lang);
  }

  async prepare(languages: readonly string[]): Promise<void> {
    if (!languages.some((lang) => isKnownLanguage(lang) && !isPlainLanguage(lang))) return;
    this.starting ??= this.engine().then((wasm) => CodeHighlighter.create(this.cache, { languages: [], wasm }));
    this.shiki = await this.starting;
    await this.shiki.loadLanguages(languages);
  }

  block(code: string, lang: string, highlightedLines: ReadonlySet<number>): HighlightedBlock {
    // Without shiki (`prepare` was not told of the language), plain text, as for a grammar not loaded.
    return this.shiki?.block(code, lang, highlightedLines) ?? { html: plainCodeHtml(code, highlightedLines) };
  }

  drawn(key: string, draw: () => string | undefined): string | undefined {
    const drawing = this.cache.get(key) ?? draw();
    if (drawing !== undefined) this.cache.record(key, drawing);
    return drawing;
  }

  /**
   * The cache entries of these blocks that this highlighter made, rather than read from the cache's file:
   * what a page thread sends with its page, for the build's own highlighter to keep (`keep`).
   */
  made(keys: readonly string[]): [key: string, html: string][] {
    return keys.flatMap((key) => {
      const html = this.cache.madeHere(key);
      return html === undefined ? [] : [[key, html] as [string, string]];
    });
  }

  /**
   * Keeps these blocks in the cache the build saves: those of pages made on another thread (with the
   * entries it made) or reused from the render cache.
   */
  keep(keys: readonly string[], made: readonly [key: string, html: string][] = []): void {
    for (const [key, html] of made) this.cache.record(key, html);
    for (const key of keys) {
      const html = this.cache.get(key);
      if (html !== undefined) this.cache.record(key, html);
    }
  }

  async forThreads(): Promise<ThreadHighlighting> {
    return { cacheDir: this.cacheDir, wasm: await this.engine() };
  }

  /** shiki's regular-expression engine, compiled once for this thread and every page thread. */
  private engine(): Promise<WebAssembly.Module> {
    return (this.compiled ??= compileRegexEngine());
  }

  /** Lets shiki go once no page is left to make (its cache stays, to be saved); a later page starts it again. */
  async dispose(): Promise<void> {
    const starting = this.starting;
    this.starting = undefined;
    this.shiki = undefined;
    (await starting?.catch(() => undefined))?.dispose();
  }

  /** Writes back the cache entries this build used. */
  save(): Promise<void> {
    return this.cache.save();
  }
}

/** The highlight cache's file in a build's cache folder. */
function highlightCacheFile(cacheDir: string): string {
  return path.join(cacheDir, 'highlight.json');
}
