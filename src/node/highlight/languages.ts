import { bundledLanguagesInfo } from 'shiki';

/**
 * The grammars `npm run dev` loads as it starts, the languages documentation uses most. Every other
 * language shiki bundles is highlighted too, its grammar loaded when a page first uses it.
 */
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

/** Every language name shiki bundles a grammar for: their ids and their aliases (`vue`, `nginx`, `sh`). */
export const LANGUAGE_NAMES: ReadonlySet<string> = new Set(
  bundledLanguagesInfo.flatMap((info) => [info.id, ...(info.aliases ?? [])]),
);

/** True when the language (or alias) is highlighted; plain-text names count as known. */
export function isKnownLanguage(lang: string): boolean {
  const l = lang.toLowerCase();
  return PLAIN_LANGUAGES.has(l) || LANGUAGE_NAMES.has(l);
}

/** True for plain-text names and for names shiki does not know (shown as plain text). */
export function isPlainLanguage(lang: string): boolean {
  return !LANGUAGE_NAMES.has(lang.toLowerCase());
}
