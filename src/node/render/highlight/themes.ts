/** Both palettes keep every token at 4.5:1 or more on the code backgrounds of app.css (WCAG AA). */
export const THEMES = { light: 'github-light-high-contrast', dark: 'github-dark-default' } as const;
