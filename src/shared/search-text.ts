/** Text rules the search index (build) and the search engine (browser) must agree on. */

/** Fields Fuse matches fuzzily: short ones only, so matching stays fast at thousands of sections. */
export const FUSE_KEYS = [
  { name: 't', weight: 2 },
  { name: 'h', weight: 1 },
] as const;

/** Longest plain-text excerpt kept per section; the start of a section carries most of its meaning. */
export const EXCERPT_LENGTH = 240;

/** Lowercase, accents folded, punctuation to spaces. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}$_]+/gu, ' ')
    .trim();
}

export function tokenize(text: string): string[] {
  return normalizeText(text)
    .split(' ')
    .filter((t) => t.length > 0);
}
