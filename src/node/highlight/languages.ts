import { bundledLanguages, bundledLanguagesInfo, type BundledLanguage } from 'shiki';

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

/** The id of every language name shiki bundles a grammar for, by the name: its id or an alias (`vue`, `nginx`, `sh`). */
const LANGUAGE_IDS: ReadonlyMap<string, string> = new Map(
  bundledLanguagesInfo.flatMap((info) => [info.id, ...(info.aliases ?? [])].map((name) => [name, info.id])),
);

/** Every language name shiki bundles a grammar for: their ids and their aliases. */
export const LANGUAGE_NAMES: ReadonlySet<string> = new Set(LANGUAGE_IDS.keys());

/** True when the language (or alias) is highlighted; plain-text names count as known. */
export function isKnownLanguage(lang: string): boolean {
  const l = lang.toLowerCase();
  return PLAIN_LANGUAGES.has(l) || LANGUAGE_NAMES.has(l);
}

/** True for plain-text names and for names shiki does not know (shown as plain text). */
export function isPlainLanguage(lang: string): boolean {
  return !LANGUAGE_NAMES.has(lang.toLowerCase());
}

/** The id shiki bundles a language under, from its id or an alias (`js`, `sh`); undefined for another name. */
export function languageId(lang: string): string | undefined {
  return LANGUAGE_IDS.get(lang.toLowerCase());
}

/**
 * The languages a language is loaded with on a highlighter of its own, or undefined when it shares the
 * highlighter of the others. A grammar that embeds languages only when they happen to be loaded (shiki's
 * lazily embedded languages: Markdown's code fences and front matter, Vue's `lang` blocks), or that
 * injects itself into other grammars (Vue into Markdown), would colour the same block one way or another
 * depending on what the pages before it had loaded: a build on threads would then write a page
 * differently from one run to the next. On its own highlighter it has exactly itself and those it embeds
 * lazily that are loaded up front everywhere (`HIGHLIGHT_LANGUAGES`), so a block looks the same in any build.
 */
export async function ownHighlighterLanguages(id: string): Promise<string[] | undefined> {
  const load = bundledLanguages[id as BundledLanguage];
  if (!load) return undefined;
  const registrations = (await load()).default;
  const lazy = new Set(registrations.flatMap((grammar) => grammar.embeddedLangsLazy ?? []));
  const injects = registrations.some((grammar) => (grammar.injectTo?.length ?? 0) > 0);
  if (lazy.size === 0 && !injects) return undefined;
  return [id, ...HIGHLIGHT_LANGUAGES.filter((lang) => lang !== id && lazy.has(lang))];
}
