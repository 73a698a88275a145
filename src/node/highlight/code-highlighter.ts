import { createHighlighter, type Highlighter, type RegexEngine } from 'shiki';
import { escapeHtml } from '../analyze/markdown/escape';
import { highlightKey, type HighlightCache } from './cache';
import type { CodeHighlighting, HighlightedBlock } from '../analyze/markdown/code-blocks';
import {
  HIGHLIGHT_LANGUAGES,
  isKnownLanguage,
  isPlainLanguage,
  languageId,
  ownHighlighterLanguages,
} from './languages';
import { createRegexEngine } from './regex-engine';
import { GrammarStates, INITIAL, ThemeColours, type StateStack } from './textmate';
import { THEMES } from './themes';

/** Plain-text code: one escaped `<span class="line">` per line, highlighted lines marked. */
export function plainCodeHtml(code: string, highlightedLines: ReadonlySet<number>): string {
  return linesHtml(
    code.split('\n').map((line) => escapeHtml(line)),
    highlightedLines,
  );
}

/** Each line in its span; `classes` (the code's plain colour) on every line, before a highlighted line's mark. */
function linesHtml(lines: string[], highlightedLines: ReadonlySet<number>, classes = ''): string {
  const line = classes ? `line ${classes}` : 'line';
  return lines
    .map((html, i) => `<span class="${line}${highlightedLines.has(i + 1) ? ' hl' : ''}">${html}</span>`)
    .join('\n');
}

/**
 * How long the tokenizer may spend on one line before it gives up on the rest of it (shown plain). It guards
 * the build against a grammar pattern that backtracks without end. shiki's own limit (500 ms) is made for an
 * editor; a build shares its cores with other work, and a busy machine must not change what a page shows.
 */
export const TOKENIZE_TIME_LIMIT_MS = 10_000;

type Grammar = ReturnType<Highlighter['getLanguage']>;

/** A line's HTML and the grammar state the next line starts in. */
interface TokenizedLine {
  html: string;
  state: StateStack;
  /** The tokenizer gave up on the line (time limit): not kept, another try may go further. */
  stoppedEarly: boolean;
}

/**
 * Build-time syntax highlighting with shiki. Colours become classes that encode both themes
 * (`c-24292e-e1e4e8`), so fragments need no inline styles and the theme switches with CSS alone.
 * Results are cached by content hash across builds.
 */
export class CodeHighlighter implements Omit<CodeHighlighting, 'drawn'> {
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
  /**
   * The classes of the code's plain text (no scope the themes colour): set on each line, so that the many
   * tokens in that colour need no span of their own. A code-heavy page has a thousand or more of them,
   * each an element the browser parses, styles and lays out.
   */
  private readonly plainClasses: string;
  /**
   * The highlighters of the languages that have one of their own (`ownHighlighterLanguages`), by language
   * id: as they are started, and once ready.
   */
  private readonly ownStarting = new Map<string, Promise<Highlighter>>();
  private readonly own = new Map<string, Highlighter>();

  private constructor(
    /** The highlighter every other language shares. */
    private readonly shiki: Highlighter,
    private readonly engine: RegexEngine,
    private readonly cache: HighlightCache | undefined,
  ) {
    this.light = new ThemeColours(shiki.getTheme(THEMES.light));
    this.dark = new ThemeColours(shiki.getTheme(THEMES.dark));
    this.plainClasses = this.classesOf([]);
  }

  /**
   * One shiki instance with both themes, reading and recording into `cache` when given. Every language is
   * loaded up front unless `languages` names fewer; `loadLanguages` adds more before they are highlighted. `wasm`,
   * shiki's regular-expression engine compiled once (`compileRegexEngine`), saves compiling it per thread.
   */
  static async create(
    cache?: HighlightCache,
    options: { languages?: readonly string[]; wasm?: WebAssembly.Module } = {},
  ): Promise<CodeHighlighter> {
    const engine = await createRegexEngine(options.wasm);
    const shiki = await createHighlighter({ themes: [THEMES.light, THEMES.dark], langs: [], engine });
    const highlighter = new CodeHighlighter(shiki, engine, cache);
    await highlighter.loadLanguages(options.languages ?? HIGHLIGHT_LANGUAGES);
    return highlighter;
  }

  /**
   * Loads the grammars of these languages (known names only) that are not loaded yet: on the shared
   * highlighter, or on one of the language's own when it has one.
   */
  async loadLanguages(languages: Iterable<string>): Promise<void> {
    const loaded = new Set(this.shiki.getLoadedLanguages());
    const ids = new Set([...languages].flatMap((lang) => languageId(lang) ?? []));
    const shared: string[] = [];
    await Promise.all(
      [...ids].map(async (id) => {
        if (loaded.has(id)) return;
        let starting = this.ownStarting.get(id);
        if (!starting) {
          const own = await ownHighlighterLanguages(id);
          if (!own) return void shared.push(id);
          // Asked for again meanwhile: started once.
          starting = this.ownStarting.get(id) ?? this.startOwn(id, own);
        }
        await starting;
      }),
    );
    if (shared.length > 0) await this.shiki.loadLanguage(...(shared as Parameters<Highlighter['loadLanguage']>));
  }

  private startOwn(id: string, languages: string[]): Promise<Highlighter> {
    const themes = [THEMES.light, THEMES.dark];
    const starting = createHighlighter({ themes, langs: languages, engine: this.engine }).then((highlighter) => {
      this.own.set(id, highlighter);
      return highlighter;
    });
    this.ownStarting.set(id, starting);
    return starting;
  }

  /** Lets shiki's highlighters go, the shared one and each language's own (a build's, when it ends). */
  dispose(): void {
    this.shiki.dispose();
    for (const highlighter of this.own.values()) highlighter.dispose();
    this.own.clear();
    this.ownStarting.clear();
  }

  /** The highlighter `lang` is loaded on, if it is. */
  private highlighterOf(lang: string): Highlighter | undefined {
    const id = languageId(lang);
    const own = id === undefined ? undefined : this.own.get(id);
    if (own) return own;
    return this.shiki.getLoadedLanguages().includes(lang.toLowerCase()) ? this.shiki : undefined;
  }

  knows(lang: string): boolean {
    return isKnownLanguage(lang);
  }

  prepare(languages: readonly string[]): Promise<void> {
    return this.loadLanguages(languages);
  }

  /** The inner HTML of `<code>`: one `<span class="line">` per line, highlighted lines marked. */
  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
    return this.block(code, lang, highlightedLines).html;
  }

  /** The block's HTML, from the cache when it has it, and its cache key (none for plain text). */
  block(code: string, lang: string, highlightedLines: ReadonlySet<number>): HighlightedBlock {
    // Plain text costs nothing to render again: it never takes room in the cache.
    if (isPlainLanguage(lang)) return { html: plainCodeHtml(code, highlightedLines) };
    const key = highlightKey(code, lang, highlightedLines);
    const cached = this.cache?.get(key);
    // A grammar `loadLanguages` was not given first: plain for now, and not cached, rather than a failure.
    const highlighter = cached === undefined ? this.highlighterOf(lang) : undefined;
    const html = cached ?? (highlighter ? this.render(highlighter, code, lang, highlightedLines) : undefined);
    if (html === undefined) return { html: plainCodeHtml(code, highlightedLines) };
    this.cache?.record(key, html);
    return { html, key };
  }

  private render(highlighter: Highlighter, code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
    return linesHtml(this.tokenize(highlighter, code, lang.toLowerCase()), highlightedLines, this.plainClasses);
  }

  /**
   * The HTML of each line, from one tokenization for both themes. shiki's own two-theme API tokenizes the
   * code once per theme, though the grammar's matches do not depend on the theme and are nearly all of a
   * cold build's time; here the grammar runs once and each token's scopes are resolved in both themes.
   * Adjacent tokens that look the same in both themes share one span.
   */
  private tokenize(highlighter: Highlighter, code: string, lang: string): string[] {
    const grammar = highlighter.getLanguage(lang);
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
    // Text in the line's own (plain) colour is written as it is; any other gets a span.
    const flush = () => {
      if (!text) return;
      html += open === this.plainClasses ? escapeHtml(text) : `<span class="${open}">${escapeHtml(text)}</span>`;
      text = '';
    };
    for (const token of result.tokens) {
      const end = Math.min(token.endIndex, line.length);
      if (end <= token.startIndex) continue;
      const classes = this.classesOf(token.scopes);
      if (classes !== open) flush();
      open = classes;
      text += line.slice(token.startIndex, end);
    }
    flush();
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
