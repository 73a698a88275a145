import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  bundledLanguagesInfo,
  createHighlighter,
  createOnigurumaEngine,
  type Highlighter,
  type PatternScanner,
  type RegexEngine,
} from 'shiki';
import { INITIAL, StateStackImpl, Theme, type StateStack } from 'shiki/textmate';
import { escapeHtml } from './escape';

/** Languages loaded once per build; anything else is shown as plain text with a warning. */
export const HIGHLIGHT_LANGUAGES = [
  'javascript',
  'typescript',
  'jsx',
  'tsx',
  'python',
  'go',
  'bash',
  'shellscript',
  'shellsession',
  'json',
  'jsonc',
  'yaml',
  'http',
  'sql',
  'html',
  'css',
  'diff',
  'ini',
  'toml',
  'markdown',
  'xml',
  'dockerfile',
  'graphql',
  'java',
] as const;

const PLAIN_LANGUAGES = new Set(['', 'text', 'txt', 'plain', 'plaintext']);

/** The language names shiki knows once HIGHLIGHT_LANGUAGES are loaded: their ids and their aliases. */
export const LANGUAGE_NAMES: ReadonlySet<string> = new Set(
  bundledLanguagesInfo
    .filter((info) =>
      [info.id, ...(info.aliases ?? [])].some((name) => (HIGHLIGHT_LANGUAGES as readonly string[]).includes(name)),
    )
    .flatMap((info) => [info.id, ...(info.aliases ?? [])]),
);

/** True when the language (or alias) is highlighted; plain-text names count as known. */
export function isKnownLanguage(lang: string): boolean {
  const l = lang.toLowerCase();
  return PLAIN_LANGUAGES.has(l) || LANGUAGE_NAMES.has(l);
}

/** True for plain-text names and for languages not highlighted (shown as plain text). */
export function isPlainLanguage(lang: string): boolean {
  return !LANGUAGE_NAMES.has(lang.toLowerCase());
}

/** What a page's code blocks are highlighted with: here and now, or later on another thread. */
export interface BlockHighlighter {
  /** The inner HTML of `<code>` (or, for a deferred highlighter, a marker it replaces later). */
  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string;
}

/** A code block's cache key: everything its HTML depends on. */
export function highlightKey(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
  return createHash('sha1')
    .update(`${THEMES.light}\0${THEMES.dark}\0${lang}\0${[...highlightedLines].join(',')}\0${code}`)
    .digest('base64url');
}

/** Plain-text code: one escaped `<span class="line">` per line, highlighted lines marked. */
export function plainCodeHtml(code: string, highlightedLines: ReadonlySet<number>): string {
  return linesHtml(
    code.split('\n').map((line) => escapeHtml(line)),
    highlightedLines,
  );
}

function linesHtml(lines: string[], highlightedLines: ReadonlySet<number>): string {
  return lines
    .map((line, i) => `<span class="line${highlightedLines.has(i + 1) ? ' hl' : ''}">${line}</span>`)
    .join('\n');
}
/** Both palettes keep every token at 4.5:1 or more on the code backgrounds of app.css (WCAG AA). */
const THEMES = { light: 'github-light-high-contrast', dark: 'github-dark-default' } as const;

/**
 * What the cached HTML was made with. A shiki upgrade can change the HTML of unchanged code (grammars,
 * theme colours), so a cache written by another version is dropped whole. shiki's exports do not include
 * its package.json, so it is found next to the module the package name resolves to.
 */
const CACHE_IDENTITY = `shiki ${shikiVersion()} ${THEMES.light} ${THEMES.dark}`;

function shikiVersion(): string {
  const entry = createRequire(import.meta.url).resolve('shiki');
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'shiki' && pkg.version) return pkg.version;
    } catch {
      // No package.json at this level: look one folder up.
    }
  }
  throw new Error(`cannot find the version of shiki (resolved to ${entry})`);
}

/** The cache file: the identity it was written with and the HTML of each code block by key. */
interface CacheFile {
  identity: string;
  entries: Record<string, string>;
}

let saves = 0;

/**
 * Highlighted code blocks by content hash, kept between builds in one JSON file. Only the entries a build
 * used are written back, so the file never grows beyond one site's code. It lives on the build's main
 * thread: the highlight pool looks blocks up here before it sends them to a thread, and records what
 * comes back.
 */
export class HighlightCache {
  private stored = new Map<string, string>();
  private readonly used = new Map<string, string>();

  /** The file it is read from and saved to; none for a cache that lives only as long as the build. */
  private constructor(readonly file: string | undefined) {}

  /** The cache of `file` (none: a cache that is never saved); an unreadable or outdated file starts empty. */
  static async load(file?: string): Promise<HighlightCache> {
    const cache = new HighlightCache(file);
    if (file) {
      try {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheFile>;
        if (parsed.identity === CACHE_IDENTITY && parsed.entries)
          cache.stored = new Map(Object.entries(parsed.entries));
      } catch {
        // No cache yet, or an unreadable one: start empty, it is rebuilt on save.
      }
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

  /** Marks an entry as used by this build (and a new one as known). */
  record(key: string, html: string): void {
    this.used.set(key, html);
  }

  /** What this build used so far, which is what `save` writes. */
  usedEntries(): [string, string][] {
    return [...this.used];
  }

  async save(): Promise<void> {
    if (!this.file) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    // Written aside and renamed, so concurrent builds never read a half-written cache.
    const partial = `${this.file}.${process.pid}.${++saves}`;
    const contents: CacheFile = { identity: CACHE_IDENTITY, entries: Object.fromEntries(this.used) };
    await writeFile(partial, JSON.stringify(contents));
    await rename(partial, this.file);
  }
}

/** shiki's regular-expression engine (Oniguruma, WebAssembly), compiled once to be shared by threads. */
export async function compileRegexEngine(): Promise<WebAssembly.Module> {
  const file = createRequire(import.meta.url).resolve('shiki/onig.wasm');
  return WebAssembly.compile(await readFile(file));
}

/** shiki's loader for an engine compiled elsewhere; its types do not name WebAssembly.Module itself. */
function instantiator(module: WebAssembly.Module) {
  return (imports: Record<string, Record<string, unknown>> | undefined) => WebAssembly.instantiate(module, imports);
}

/**
 * The engine, with one scanner per distinct list of patterns. vscode-textmate compiles a scanner for each
 * rule, and for each way its anchors resolve; a quarter of those lists were compiled already (the same
 * rules included in many places, in the JavaScript grammar above all), and compiling is a third of
 * highlighting a site's code from cold. A shared scanner is freed when its last user lets it go.
 */
function sharingScanners(engine: RegexEngine): RegexEngine {
  const shared = new Map<string, { scanner: PatternScanner; users: number }>();
  return {
    createScanner(patterns) {
      const key = JSON.stringify(patterns.map((pattern) => (typeof pattern === 'string' ? pattern : pattern.source)));
      let entry = shared.get(key);
      if (!entry) {
        entry = { scanner: engine.createScanner(patterns), users: 0 };
        shared.set(key, entry);
      }
      const current = entry;
      current.users++;
      let disposed = false;
      return {
        findNextMatchSync: (string, start, options) => current.scanner.findNextMatchSync(string, start, options),
        dispose() {
          if (disposed) return;
          disposed = true;
          if (--current.users === 0) {
            shared.delete(key);
            current.scanner.dispose?.();
          }
        },
      };
    },
    createString: (text) => engine.createString(text),
  };
}

/**
 * How long the tokenizer may spend on one line before it gives up on the rest of it (shown plain). It guards
 * the build against a grammar pattern that backtracks without end. shiki's own limit (500 ms) is made for an
 * editor; a build shares its cores with other work, and a busy machine must not change what a page shows.
 */
export const TOKENIZE_TIME_LIMIT_MS = 10_000;

/** The part of a TextMate scope path that `Theme.match` reads (vscode-textmate does not export the class). */
interface ScopePath {
  readonly parent: ScopePath | null;
  readonly scopeName: string;
}

/** One theme as vscode-textmate resolves it: its rule tree, its colour table and shiki's colour replacements. */
class ThemeColours {
  private readonly theme: Theme;
  private readonly colours: string[];

  constructor(private readonly resolved: ReturnType<Highlighter['getTheme']>) {
    this.theme = Theme.createFromRawTheme(resolved);
    this.colours = this.theme.getColorMap();
  }

  /**
   * The colour and font style of a token with these scopes, resolved the way vscode-textmate does while
   * tokenizing: each scope, pushed in order, may set the colour and the font style, and keeps its parent's
   * where its rule sets none.
   */
  styleOf(scopes: readonly string[]): { colour: string; fontStyle: number } {
    const defaults = this.theme.getDefaults();
    let foreground = defaults.foregroundId;
    let fontStyle = defaults.fontStyle;
    let path: ScopePath | null = null;
    for (const scopeName of scopes) {
      path = { parent: path, scopeName };
      const match = this.theme.match(path as Parameters<Theme['match']>[0]);
      if (!match) continue;
      if (match.fontStyle !== -1) fontStyle = match.fontStyle;
      if (match.foregroundId !== 0) foreground = match.foregroundId;
    }
    const raw = this.colours[foreground] ?? '#000000';
    return { colour: this.resolved.colorReplacements?.[raw.toLowerCase()] ?? raw, fontStyle };
  }
}

type Grammar = ReturnType<Highlighter['getLanguage']>;

/** A line's HTML and the grammar state the next line starts in. */
interface TokenizedLine {
  html: string;
  state: StateStack;
  /** The tokenizer gave up on the line (time limit): not kept, another try may go further. */
  stoppedEarly: boolean;
}

/**
 * Numbers grammar states by what they carry into the next line, so that equal states get one number
 * whichever object holds them. That is each frame's rule, its dynamic end pattern, whether its begin
 * captured the end of the line, and its scopes: the frame vscode-textmate itself serializes a state to
 * and resumes from (`StateStackImpl.toStateStackFrame`/`pushFrame`). The positions a frame also holds
 * are reset at the start of every line.
 */
class GrammarStates {
  private readonly ids = new WeakMap<StateStack, number>();
  private readonly idsByFrames = new Map<string, number>();

  idOf(state: StateStack): number {
    if (state === INITIAL) return 0;
    let id = this.ids.get(state);
    if (id === undefined) {
      const frames = [];
      for (let frame: StateStackImpl | null = state as StateStackImpl; frame; frame = frame.parent) {
        frames.push(frame.toStateStackFrame());
      }
      const key = JSON.stringify(frames);
      id = this.idsByFrames.get(key);
      if (id === undefined) {
        id = this.idsByFrames.size + 1;
        this.idsByFrames.set(key, id);
      }
      this.ids.set(state, id);
    }
    return id;
  }
}

/**
 * Build-time syntax highlighting with shiki. Colours become classes that encode both themes
 * (`c-24292e-e1e4e8`), so fragments need no inline styles and the theme switches with CSS alone.
 * Results are cached by content hash across builds.
 */
export class CodeHighlighter implements BlockHighlighter {
  /** The classes of a token, by its scope list: a few hundred distinct lists cover a whole site. */
  private readonly classesByScopes = new Map<string, string>();
  /**
   * Lines already tokenized, by grammar, grammar state and text: what a line becomes depends on nothing
   * else. Code repeats itself (closing braces, imports, the same calls): half the lines of this
   * repository's code were tokenized before, and three quarters of a large generated site's. By grammar
   * object, not language name: loading one language can make shiki load another's grammar again.
   */
  private readonly lines = new WeakMap<Grammar, Map<string, TokenizedLine>>();
  private readonly states = new GrammarStates();
  private readonly light: ThemeColours;
  private readonly dark: ThemeColours;

  private constructor(
    private readonly shiki: Highlighter,
    private readonly cache: HighlightCache | undefined,
  ) {
    this.light = new ThemeColours(shiki.getTheme(THEMES.light));
    this.dark = new ThemeColours(shiki.getTheme(THEMES.dark));
  }

  /**
   * One shiki instance with both themes, reading and recording into `cache` when given (a highlight thread
   * has none: the pool caches what it sends back). Every language is loaded up
   * front unless `languages` names fewer; `loadLanguages` adds more before they are highlighted. `wasm`,
   * shiki's regular-expression engine compiled once (`compileRegexEngine`), saves compiling it per thread.
   */
  static async create(
    cache?: HighlightCache,
    options: { languages?: readonly string[]; wasm?: WebAssembly.Module } = {},
  ): Promise<CodeHighlighter> {
    const engine = await createOnigurumaEngine(options.wasm ? instantiator(options.wasm) : import('shiki/wasm'));
    const shiki = await createHighlighter({
      themes: [THEMES.light, THEMES.dark],
      langs: [...(options.languages ?? HIGHLIGHT_LANGUAGES)],
      engine: sharingScanners(engine),
    });
    return new CodeHighlighter(shiki, cache);
  }

  /** Loads the grammars of these languages (known names only) that are not loaded yet. */
  async loadLanguages(languages: Iterable<string>): Promise<void> {
    const loaded = new Set(this.shiki.getLoadedLanguages());
    const missing = [...new Set([...languages].map((l) => l.toLowerCase()))].filter(
      (l) => LANGUAGE_NAMES.has(l) && !loaded.has(l),
    );
    if (missing.length > 0) await this.shiki.loadLanguage(...(missing as Parameters<Highlighter['loadLanguage']>));
  }

  /** The inner HTML of `<code>`: one `<span class="line">` per line, highlighted lines marked. */
  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
    // Plain text costs nothing to render again: it never takes room in the cache.
    if (isPlainLanguage(lang)) return plainCodeHtml(code, highlightedLines);
    if (!this.cache) return this.render(code, lang, highlightedLines);
    const key = highlightKey(code, lang, highlightedLines);
    const html = this.cache.get(key) ?? this.render(code, lang, highlightedLines);
    this.cache.record(key, html);
    return html;
  }

  private render(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
    return linesHtml(this.tokenize(code, lang.toLowerCase()), highlightedLines);
  }

  /**
   * The HTML of each line, from one tokenization for both themes. shiki's own two-theme API tokenizes the
   * code once per theme, though the grammar's matches do not depend on the theme and are nearly all of a
   * cold build's time; here the grammar runs once and each token's scopes are resolved in both themes.
   * Adjacent tokens that look the same in both themes share one span.
   */
  private tokenize(code: string, lang: string): string[] {
    const grammar = this.shiki.getLanguage(lang);
    let lines = this.lines.get(grammar);
    if (!lines) {
      lines = new Map();
      this.lines.set(grammar, lines);
    }
    let state: StateStack = INITIAL;
    return code.split(/\r?\n/).map((line) => {
      // An empty line leaves the grammar's state as it was, as in shiki.
      if (line === '') return '';
      const key = `${this.states.idOf(state)}\0${line}`;
      let tokenized = lines.get(key);
      if (!tokenized) {
        tokenized = this.tokenizeLine(grammar, line, state);
        if (!tokenized.stoppedEarly) lines.set(key, tokenized);
      }
      state = tokenized.state;
      return tokenized.html;
    });
  }

  private tokenizeLine(grammar: Grammar, line: string, state: StateStack): TokenizedLine {
    const result = grammar.tokenizeLine(line, state, TOKENIZE_TIME_LIMIT_MS);
    let html = '';
    let open = '';
    let text = '';
    for (const token of result.tokens) {
      const end = Math.min(token.endIndex, line.length);
      if (end <= token.startIndex) continue;
      const classes = this.classesOf(token.scopes);
      if (classes !== open && text) {
        html += `<span class="${open}">${escapeHtml(text)}</span>`;
        text = '';
      }
      open = classes;
      text += line.slice(token.startIndex, end);
    }
    if (text) html += `<span class="${open}">${escapeHtml(text)}</span>`;
    // A line the tokenizer gave up on keeps the text it did not reach, uncoloured.
    const reached = Math.min(result.tokens.at(-1)?.endIndex ?? 0, line.length);
    if (result.stoppedEarly && reached < line.length) html += escapeHtml(line.slice(reached));
    return { html, state: result.ruleStack, stoppedEarly: result.stoppedEarly };
  }

  private classesOf(scopes: readonly string[]): string {
    const key = scopes.join('\n');
    let classes = this.classesByScopes.get(key);
    if (classes === undefined) {
      const light = this.light.styleOf(scopes);
      const dark = this.dark.styleOf(scopes);
      classes = `c-${colour(light.colour)}-${colour(dark.colour)}`;
      // One set of classes serves both themes, so italic and bold follow the light one (as they always have).
      if (light.fontStyle & 1) classes += ' fi';
      if (light.fontStyle & 2) classes += ' fb';
      this.classesByScopes.set(key, classes);
    }
    return classes;
  }
}

function colour(value: string): string {
  return value.replace('#', '').toLowerCase();
}

/** `{1,4-6}` → {1,4,5,6}; returns undefined when the text is not a line range list. */
export function parseLineRanges(spec: string): Set<number> | undefined {
  const inner = /^\{([\d,\s-]*)\}$/.exec(spec.trim())?.[1];
  if (inner === undefined) return undefined;
  const lines = new Set<number>();
  for (const part of inner
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [from, to] = part.split('-').map(Number);
    if (from === undefined || Number.isNaN(from)) return undefined;
    const end = to === undefined || Number.isNaN(to) ? from : to;
    for (let n = from; n <= end && n - from < 10_000; n++) lines.add(n);
  }
  return lines;
}

/** The code colours the fragments use, as `light-dark` pairs: one per `c-LIGHT-DARK` class of `highlightCss`. */
export function codeColours(fragments: Iterable<string>): Set<string> {
  const pairs = new Set<string>();
  for (const html of fragments) {
    for (const m of html.matchAll(/\bc-([0-9a-f]{6,8})-([0-9a-f]{6,8})\b/g)) pairs.add(`${m[1]}-${m[2]}`);
  }
  return pairs;
}

/**
 * CSS for every colour class found in the fragments: light by default; dark when the reader chose dark,
 * or when the system prefers dark and the reader did not choose light (the same rule as app.css). The dark
 * colours are for the screen only: paper is white, and print uses the light palette (app.css).
 */
export function highlightCss(fragments: Iterable<string>): string {
  const pairs = codeColours(fragments);
  const light: string[] = ['.fi{font-style:italic}.fb{font-weight:600}'];
  const chosenDark: string[] = [];
  const systemDark: string[] = [];
  for (const pair of [...pairs].sort()) {
    const [lightColour, darkColour] = pair.split('-');
    light.push(`.c-${pair}{color:#${lightColour}}`);
    chosenDark.push(`:root[data-theme=dark] .c-${pair}{color:#${darkColour}}`);
    systemDark.push(`:root:not([data-theme=light]) .c-${pair}{color:#${darkColour}}`);
  }
  return [
    ...light,
    `@media screen{${chosenDark.join('')}}`,
    `@media screen and (prefers-color-scheme:dark){${systemDark.join('')}}`,
  ].join('\n');
}
