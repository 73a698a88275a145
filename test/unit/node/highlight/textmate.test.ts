/**
 * The canary for src/node/highlight/textmate.ts, the one file that reaches below shiki's public API: when a
 * shiki upgrade changes the internals it relies on, these tests fail and name that file.
 */
import { createHighlighter, type BundledLanguage, type Highlighter } from 'shiki';
import { INITIAL, Theme, type StateStack, type StateStackImpl } from 'shiki/textmate';
import { beforeAll, describe, expect, it } from 'vitest';
import { CodeHighlighter, TOKENIZE_TIME_LIMIT_MS } from '../../../../src/node/highlight/code-highlighter';
import { HIGHLIGHT_LANGUAGES } from '../../../../src/node/highlight/languages';
import { GrammarStates, ThemeColours } from '../../../../src/node/highlight/textmate';
import { THEMES } from '../../../../src/node/highlight/themes';
import { decodeEntities } from '../../../../src/node/analyze/markdown/escape';
import { SAMPLES } from './samples';

const REVISIT = 'shiki changed an internal that src/node/highlight/textmate.ts relies on: revisit that file';

type Style = { light: string; dark: string; lightFontStyle: number; darkFontStyle: number };

const hex = (colour: string | undefined) => (colour ?? '#000000').replace('#', '').toLowerCase();

/** shiki's public two-theme tokenization: the style of every character, line by line. */
function publicStyles(shiki: Highlighter, code: string, lang: string): Style[][] {
  return shiki
    .codeToTokensWithThemes(code, {
      lang: lang as BundledLanguage,
      themes: THEMES,
      tokenizeTimeLimit: TOKENIZE_TIME_LIMIT_MS,
    })
    .map((tokens) =>
      tokens.flatMap((token) =>
        [...token.content].map(() => ({
          light: hex(token.variants['light']?.color),
          dark: hex(token.variants['dark']?.color),
          lightFontStyle: Math.max(token.variants['light']?.fontStyle ?? 0, 0),
          darkFontStyle: Math.max(token.variants['dark']?.fontStyle ?? 0, 0),
        })),
      ),
    );
}

/**
 * The same from the highlighter's HTML, which carries both colours and the light theme's italic and bold:
 * a token's span, or for text outside one, its line's colours.
 */
function highlighterStyles(html: string): Omit<Style, 'darkFontStyle'>[][] {
  return html.split('\n').map((line) => {
    const [, plainLight = '', plainDark = '', inner = ''] =
      /^<span class="line c-([0-9a-f]+)-([0-9a-f]+)">(.*)<\/span>$/.exec(line) ?? [];
    return [...inner.matchAll(/<span class="c-([0-9a-f]+)-([0-9a-f]+)((?: f[ib])*)">([^<]*)<\/span>|([^<]+)/g)].flatMap(
      ([, light = plainLight, dark = plainDark, flags = '', spanText, plainText]) =>
        [...decodeEntities(spanText ?? plainText ?? '')].map(() => ({
          light,
          dark,
          lightFontStyle: (flags.includes('fi') ? 1 : 0) | (flags.includes('fb') ? 2 : 0),
        })),
    );
  });
}

/** ThemeColours for both themes over the public grammar's tokens: the dark theme's italic and bold as well. */
function themeColourStyles(shiki: Highlighter, code: string, lang: string): Style[][] {
  const light = new ThemeColours(shiki.getTheme(THEMES.light));
  const dark = new ThemeColours(shiki.getTheme(THEMES.dark));
  const grammar = shiki.getLanguage(lang);
  let state: StateStack = INITIAL;
  return code.split('\n').map((line) => {
    if (line === '') return [];
    const result = grammar.tokenizeLine(line, state, TOKENIZE_TIME_LIMIT_MS);
    state = result.ruleStack;
    return result.tokens.flatMap((token) => {
      const l = light.styleOf(token.scopes);
      const d = dark.styleOf(token.scopes);
      const style = {
        light: hex(l.colour),
        dark: hex(d.colour),
        lightFontStyle: l.fontStyle,
        darkFontStyle: d.fontStyle,
      };
      return [...line.slice(token.startIndex, Math.min(token.endIndex, line.length))].map(() => style);
    });
  });
}

/** The characters whose styles differ, as `lang line:column expected → actual`, for a readable failure. */
function differences<T>(lang: string, expected: T[][], actual: T[][]): string[] {
  const found: string[] = [];
  expected.forEach((line, l) => {
    if ((actual[l]?.length ?? 0) !== line.length)
      found.push(`${lang} line ${l + 1}: length ${actual[l]?.length} ≠ ${line.length}`);
    line.forEach((style, c) => {
      if (JSON.stringify(style) !== JSON.stringify(actual[l]?.[c]))
        found.push(`${lang} ${l + 1}:${c + 1} ${JSON.stringify(style)} → ${JSON.stringify(actual[l]?.[c])}`);
    });
  });
  if (actual.length !== expected.length) found.push(`${lang}: ${actual.length} lines ≠ ${expected.length}`);
  return found.slice(0, 20);
}

describe("the highlighter's private hooks into shiki (src/node/highlight/textmate.ts)", () => {
  let shiki: Highlighter;
  beforeAll(async () => {
    shiki = await createHighlighter({ themes: [THEMES.light, THEMES.dark], langs: [...HIGHLIGHT_LANGUAGES] });
  });

  it('find the members they use', () => {
    // StateStackImpl is a type only: vscode-textmate does not export the class, so it is reached through INITIAL.
    const stateClass = Object.getPrototypeOf(INITIAL) as typeof StateStackImpl.prototype;
    expect(typeof stateClass.toStateStackFrame, `${REVISIT} (StateStackImpl.prototype.toStateStackFrame)`).toBe(
      'function',
    );
    expect(typeof Theme.createFromRawTheme, `${REVISIT} (Theme.createFromRawTheme)`).toBe('function');
    for (const member of ['match', 'getColorMap', 'getDefaults'] as const)
      expect(typeof Theme.prototype[member], `${REVISIT} (Theme.prototype.${member})`).toBe('function');
    const defaults = Theme.createFromRawTheme(shiki.getTheme(THEMES.light)).getDefaults();
    expect(typeof defaults.foregroundId, `${REVISIT} (Theme defaults)`).toBe('number');
    expect(typeof defaults.fontStyle, `${REVISIT} (Theme defaults)`).toBe('number');

    const { ruleStack } = shiki.getLanguage('javascript').tokenizeLine('const a = `', INITIAL);
    const state = ruleStack as StateStackImpl;
    expect(Object.getPrototypeOf(state), `${REVISIT} (grammar states are no longer StateStackImpl)`).toBe(stateClass);
    expect(state.parent, `${REVISIT} (StateStackImpl.parent)`).toBeInstanceOf(Object);
    // GrammarStates keys a state by its frames: a field a frame leaves out must be one that does not carry
    // into the next line. A field added or renamed here may be state the frames miss.
    expect(Object.keys(state).sort(), `${REVISIT} (the fields of StateStackImpl changed)`).toEqual(
      [
        '_anchorPos',
        '_enterPos',
        '_stackElementBrand',
        'beginRuleCapturedEOL',
        'contentNameScopesList',
        'depth',
        'endRule',
        'nameScopesList',
        'parent',
        'ruleId',
      ].sort(),
    );
    expect(Object.keys(state.toStateStackFrame()).sort(), `${REVISIT} (StateStackImpl.toStateStackFrame)`).toEqual(
      ['beginRuleCapturedEOL', 'contentNameScopesList', 'endRule', 'nameScopesList', 'ruleId'].sort(),
    );
  });

  it('number equal grammar states alike and different ones apart', () => {
    const grammar = shiki.getLanguage('javascript');
    const states = new GrammarStates();
    const after = (line: string) => grammar.tokenizeLine(line, INITIAL).ruleStack;
    const [commentA, commentB, template] = [after('/* a'), after('/* b, longer'), after('const t = `')];
    expect(commentA).not.toBe(commentB);
    expect(states.idOf(INITIAL), REVISIT).toBe(0);
    expect(states.idOf(commentA), REVISIT).toBe(states.idOf(commentB));
    expect(states.idOf(template), REVISIT).not.toBe(states.idOf(commentA));
    expect(states.idOf(after('const a = 1;')), REVISIT).toBe(states.idOf(after('let b = "x";')));
    // The same rule, ended by another word: a heredoc's end pattern is made from what its begin captured.
    const bash = shiki.getLanguage('bash');
    const heredoc = (word: string) => bash.tokenizeLine(`cat <<${word}`, INITIAL).ruleStack;
    expect(states.idOf(heredoc('EOF')), REVISIT).toBe(states.idOf(heredoc('EOF')));
    expect(states.idOf(heredoc('EOF')), REVISIT).not.toBe(states.idOf(heredoc('END')));
  });

  it("resolve every character's light and dark colour, italic and bold as shiki's public API does", () => {
    const found = SAMPLES.flatMap(({ lang, code }) =>
      differences(lang, publicStyles(shiki, code, lang), themeColourStyles(shiki, code, lang)),
    );
    expect(found, REVISIT).toEqual([]);
  });

  it("give the highlighter's HTML the colours, italic and bold of shiki's public API, its line cache warm or cold", async () => {
    // One highlighter for every sample, twice over: the second pass comes from the lines cached by grammar state.
    const highlighter = await CodeHighlighter.create();
    for (const pass of ['cold', 'warm']) {
      const found = SAMPLES.flatMap(({ lang, code }) => {
        const expected = publicStyles(shiki, code, lang).map((line) =>
          line.map(({ light, dark, lightFontStyle }) => ({ light, dark, lightFontStyle })),
        );
        return differences(
          `${pass} ${lang}`,
          expected,
          highlighterStyles(highlighter.highlight(code, lang, new Set())),
        );
      });
      expect(found, REVISIT).toEqual([]);
    }
  });
});
