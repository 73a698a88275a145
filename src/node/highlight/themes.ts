/** Both palettes keep every token at 4.5:1 or more on the code backgrounds of app.css (WCAG AA). */
export const THEMES = { light: 'github-light-high-contrast', dark: 'github-dark-default' } as const;

/**
 * How highlighted code is written as HTML, for caches of it: each line's span carries the colour of the
 * code's plain text, and only tokens of another colour or style have a span of their own; a language that
 * embeds others lazily is coloured with a fixed set of them (languages.ts, `ownHighlighterLanguages`).
 */
export const HIGHLIGHT_HTML_FORMAT = 3;
