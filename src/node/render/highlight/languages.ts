import { bundledLanguagesInfo } from 'shiki';

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
