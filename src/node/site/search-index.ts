import Fuse from 'fuse.js';
import { EXCERPT_LENGTH, FUSE_KEYS } from '../../shared/search-text';
import type { SearchData, SearchRecord } from '../../shared/types';
import type { PageSource } from '../content/page-source';

/** One record per page section (intro, each h2/h3), from the same pass that made the fragments. */
export function buildSearchData(pages: readonly PageSource[]): SearchData {
  const records: SearchRecord[] = [];
  for (const page of pages) {
    for (const section of page.analysis.sections) {
      const intro = section.level === 1;
      const text = intro && !section.text ? page.description : section.text;
      records.push({
        t: page.title,
        h: intro ? '' : section.heading,
        u: intro ? page.route : `${page.route}#${section.slug}`,
        x: excerpt(intro ? text.replace(page.title, '').trim() || text : text),
        l: section.level,
      });
    }
    if (!page.analysis.sections.some((s) => s.level === 1)) {
      records.push({ t: page.title, h: '', u: page.route, x: excerpt(page.description), l: 1 });
    }
  }
  const index = Fuse.createIndex<SearchRecord>([...FUSE_KEYS], records).toJSON();
  return { records, index };
}

function excerpt(text: string): string {
  if (text.length <= EXCERPT_LENGTH) return text;
  const cut = text.slice(0, EXCERPT_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > EXCERPT_LENGTH - 40 ? space : EXCERPT_LENGTH)}…`;
}
