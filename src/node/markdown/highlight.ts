import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createHighlighter, type BundledLanguage, type Highlighter } from 'shiki';
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
] as const;

const PLAIN_LANGUAGES = new Set(['', 'text', 'txt', 'plain', 'plaintext']);
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
 * Build-time syntax highlighting with shiki. Colours become classes that encode both themes
 * (`c-24292e-e1e4e8`), so fragments need no inline styles and the theme switches with CSS alone.
 * Results are cached by content hash across builds.
 */
export class CodeHighlighter {
  private cache = new Map<string, string>();
  private used = new Map<string, string>();

  private constructor(
    private readonly shiki: Highlighter,
    private readonly cacheFile: string | undefined,
  ) {}

  static async create(cacheFile?: string): Promise<CodeHighlighter> {
    const shiki = await createHighlighter({
      themes: [THEMES.light, THEMES.dark],
      langs: [...HIGHLIGHT_LANGUAGES],
    });
    const highlighter = new CodeHighlighter(shiki, cacheFile);
    if (cacheFile) {
      try {
        const file = JSON.parse(await readFile(cacheFile, 'utf8')) as Partial<CacheFile>;
        if (file.identity === CACHE_IDENTITY && file.entries) highlighter.cache = new Map(Object.entries(file.entries));
      } catch {
        // No cache yet, or an unreadable one: start empty, it is rebuilt on save.
      }
    }
    return highlighter;
  }

  /** True when the language (or alias) is highlighted; plain-text names count as known. */
  knows(lang: string): boolean {
    const l = lang.toLowerCase();
    return PLAIN_LANGUAGES.has(l) || this.shiki.getLoadedLanguages().includes(l);
  }

  /** The inner HTML of `<code>`: one `<span class="line">` per line, highlighted lines marked. */
  highlight(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
    const key = createHash('sha1')
      .update(`${THEMES.light}\0${THEMES.dark}\0${lang}\0${[...highlightedLines].join(',')}\0${code}`)
      .digest('base64url');
    const hit = this.cache.get(key) ?? this.used.get(key);
    const html = hit ?? this.render(code, lang, highlightedLines);
    this.used.set(key, html);
    return html;
  }

  private render(code: string, lang: string, highlightedLines: ReadonlySet<number>): string {
    const l = lang.toLowerCase();
    const lines =
      PLAIN_LANGUAGES.has(l) || !this.knows(l)
        ? code.split('\n').map((line) => escapeHtml(line))
        : this.shiki.codeToTokensWithThemes(code, { lang: l as BundledLanguage, themes: THEMES }).map((tokens) =>
            tokens
              .map((token) => {
                const light = token.variants.light;
                const dark = token.variants.dark;
                const classes = [`c-${colour(light?.color)}-${colour(dark?.color)}`];
                const style = light?.fontStyle ?? 0;
                if (style & 1) classes.push('fi');
                if (style & 2) classes.push('fb');
                return `<span class="${classes.join(' ')}">${escapeHtml(token.content)}</span>`;
              })
              .join(''),
          );
    return lines
      .map((line, i) => `<span class="line${highlightedLines.has(i + 1) ? ' hl' : ''}">${line}</span>`)
      .join('\n');
  }

  /** Writes the entries used by this build, so the cache never grows beyond one site's code. */
  async save(): Promise<void> {
    if (!this.cacheFile) return;
    await mkdir(path.dirname(this.cacheFile), { recursive: true });
    // Written aside and renamed, so concurrent builds never read a half-written cache.
    const partial = `${this.cacheFile}.${process.pid}.${++saves}`;
    const file: CacheFile = { identity: CACHE_IDENTITY, entries: Object.fromEntries(this.used) };
    await writeFile(partial, JSON.stringify(file));
    await rename(partial, this.cacheFile);
  }
}

function colour(value: string | undefined): string {
  return (value ?? '#000000').replace('#', '').toLowerCase();
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

/**
 * CSS for every colour class found in the fragments: light by default; dark when the reader chose dark,
 * or when the system prefers dark and the reader did not choose light (the same rule as app.css). The dark
 * colours are for the screen only: paper is white, and print uses the light palette (app.css).
 */
export function highlightCss(fragments: Iterable<string>): string {
  const pairs = new Set<string>();
  for (const html of fragments) {
    for (const m of html.matchAll(/\bc-([0-9a-f]{6,8})-([0-9a-f]{6,8})\b/g)) pairs.add(`${m[1]}-${m[2]}`);
  }
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
