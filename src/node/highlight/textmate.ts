/**
 * The one place the build reaches below shiki's public API, into the TextMate engine it bundles
 * ('shiki/textmate', vscode-textmate): nothing else may import it.
 *
 * Why: shiki's public two-theme API tokenizes the code once per theme, though the grammar's matches do not
 * depend on the theme and are nearly all of a cold build's time. The highlighter (code-highlighter.ts)
 * runs the grammar once and resolves each token's scopes in both themes here (`ThemeColours`, with
 * vscode-textmate's `Theme`), and it keeps each tokenized line under a number for the grammar state it
 * started in (`GrammarStates`, from the frames `StateStackImpl.toStateStackFrame` serializes), so a line
 * seen before in the same state is not tokenized again. The public API offers neither.
 *
 * What guards it: test/unit/node/highlight/textmate.test.ts checks that every member used here still
 * exists, and that the highlighter's light and dark colour, italic and bold of every character of real
 * code in several languages equal what shiki's public `codeToTokensWithThemes` gives. When a shiki
 * upgrade breaks either, this file is the one to revisit.
 */
import type { Highlighter } from 'shiki';
import { INITIAL, StateStackImpl, Theme, type StateStack } from 'shiki/textmate';

export { INITIAL, type StateStack };

/** The part of a TextMate scope path that `Theme.match` reads (vscode-textmate does not export the class). */
interface ScopePath {
  readonly parent: ScopePath | null;
  readonly scopeName: string;
}

/** One theme as vscode-textmate resolves it: its rule tree, its colour table and shiki's colour replacements. */
export class ThemeColours {
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

/**
 * Numbers grammar states by what they carry into the next line, so that equal states get one number
 * whichever object holds them. That is each frame's rule, its dynamic end pattern, whether its begin
 * captured the end of the line, and its scopes: the frame vscode-textmate itself serializes a state to
 * and resumes from (`StateStackImpl.toStateStackFrame`/`pushFrame`). The positions a frame also holds
 * are reset at the start of every line.
 */
export class GrammarStates {
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
