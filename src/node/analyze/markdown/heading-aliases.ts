/**
 * The heading ids VuePress and VitePress gave headings, so that links written for those sites (and URLs
 * readers saved from them) still reach the heading. Both tools make an id the same way: accents and
 * control characters dropped, every run of spaces and punctuation one `-`, no `-` at either end, a leading
 * digit prefixed with `_`, lower case. VuePress also counts the en and em dash as punctuation; VitePress
 * keeps them. GitHub's ids (ours) differ where a heading has punctuation between words:
 * `Event / Execution History` is `event--execution-history` here and `event-execution-history` there.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/g;
const COMBINING = /[\u0300-\u036f]/g;
const VITEPRESS_PUNCTUATION = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
const VUEPRESS_PUNCTUATION = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’–—<>,.?/]+/g;

function vueSlug(title: string, punctuation: RegExp): string {
  return title
    .normalize('NFKD')
    .replace(COMBINING, '')
    .replace(CONTROL, '')
    .replace(punctuation, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/**
 * Gives each heading of one page its VuePress and VitePress ids; like both tools, a repeated id gets `-1`,
 * `-2`. Call once per heading, in document order.
 */
export class LegacySlugger {
  private readonly seen = new Map<string, number>();

  slugs(title: string): string[] {
    const found = new Set<string>();
    for (const punctuation of [VUEPRESS_PUNCTUATION, VITEPRESS_PUNCTUATION]) {
      const slug = vueSlug(title, punctuation);
      if (slug === '') continue;
      found.add(slug);
    }
    return [...found].map((slug) => {
      const count = this.seen.get(slug);
      this.seen.set(slug, (count ?? 0) + 1);
      return count === undefined ? slug : `${slug}-${count}`;
    });
  }
}
