/**
 * Sentences that send a reader somewhere and leave them empty-handed: a section of another page named while
 * only the page is linked, an example promised "like this" with none beside it, or a remark about what the
 * documentation does not publish in place of saying what a reader can do.
 */

import { decodeEntities, proseBlocks } from '../../helpers/prose';

const sentencesOf = (block: string) => block.split(/(?<=[.!?])\s+(?=[A-Z[`(])/);

/**
 * "The billing section of your [user settings]", "the usage page in your [settings]", "[the pagination
 * section of the reference]": a part of another page, named in the words before "section" or "page". The
 * link must carry the part's `#section` (the build checks that it exists), and a page without a heading of
 * that name has no such part to send a reader to. A name in bold is a label of the app's screens (the
 * step's **Destinations** section), which the linked page describes without a heading of its own.
 */
const PART_OF_A_PAGE =
  /(\*\*[^*]+\*\*|[\w'’]+)\s+(section|page|tab|panel)\s+(of|in|on)\s+(the\s+|your\s+|its\s+)?[^⟦.]{0,40}⟦([^⟧]*)⟧/gi;

export function sectionPointersWithoutSection(
  pages: Record<string, string>,
  headings: Record<string, string[]>,
  base: string,
): string[] {
  const problems: string[] = [];
  for (const [route, html] of Object.entries(pages)) {
    for (const block of proseBlocks(html, '**')) {
      for (const sentence of sentencesOf(block)) {
        for (const match of sentence.matchAll(PART_OF_A_PAGE)) {
          const [, name = '', , , , href = ''] = match;
          if (!href.startsWith(base) || href.includes('#')) continue;
          const target = `/${href.slice(base.length)}`;
          const word = name.replace(/['’]s$/, '').toLowerCase();
          const hasPart = (headings[target] ?? []).some((title) => title.toLowerCase().includes(word));
          if (name.startsWith('**') && !hasPart) continue;
          const text = sentence.replace(/⟦[^⟧]*⟧/g, '').replace(/\*\*/g, '');
          problems.push(
            hasPart
              ? `${route}: "${text}" names a section of ${target} but links the page`
              : `${route}: "${text}" names a part of ${target} that the page does not have`,
          );
        }
      }
    }
  }
  return problems;
}

/**
 * A paragraph that promises an example ("looks like this:", "run a relay like this") must be followed by
 * it: code, a list or a table. "A workflow like this one" speaks of what the page is about, and is no promise.
 */
const PROMISE =
  /\b(like this|as follows|the following)\s*:|\b(run|use|write|add|create|deploy|build|try)\b[^.:]{0,40}\blike this\b(?! one)/i;

export function examplesPromisedButMissing(pages: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [route, html] of Object.entries(pages)) {
    for (const paragraph of html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)) {
      const text = decodeEntities((paragraph[1] ?? '').replace(/<[^>]+>/g, ''));
      if (!PROMISE.test(text)) continue;
      const next = html.slice(paragraph.index + paragraph[0].length).trimStart();
      if (/^<(pre|div|ul|ol|table|blockquote|details)\b/.test(next)) continue;
      problems.push(`${route}: "${text.trim()}" promises an example that does not follow`);
    }
  }
  return problems;
}

/**
 * A sentence about what the documentation, the site or a page does not publish, name or state. Such a
 * sentence tells the reader nothing they can act on: say where the value is found, or leave the claim out.
 */
const UNPUBLISHED = [
  /\b(documentation|docs|site|page)\b[^.]*\b(publish(es)?|names?|states?|gives?|lists?)\s+no\b/i,
  /\b(documentation|docs|site|page)\b[^.]*\b(does not|doesn't|do not|don't)\s+(publish|name|state|give|list)\b/i,
  /\b(none|no [a-z ]{0,30}(figure|address|key|list)) is published\b/i,
];

export function unpublishedRemarks(pages: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [route, html] of Object.entries(pages)) {
    for (const block of proseBlocks(html, '**')) {
      for (const sentence of sentencesOf(block.replace(/⟦[^⟧]*⟧|\*\*/g, ''))) {
        if (UNPUBLISHED.some((re) => re.test(sentence))) problems.push(`${route}: "${sentence}"`);
      }
    }
  }
  return problems;
}
