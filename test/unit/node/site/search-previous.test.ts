import { describe, expect, it } from 'vitest';
import type { PageRecord } from '../../../../src/node/analyze/page-record';
import { pageSearch } from '../../../../src/node/analyze/page-search';
import { searchFiles, type SearchFiles } from '../../../../src/node/site/search-files';
import { buildSearchIndex } from '../../../../src/node/site/search-index';
import { Pace } from '../../../../src/node/pace';
import { searchOf } from '../../../../src/node/output/published-search';
import type { PreviousSearch } from '../../../../src/node/site/search-previous';
import type { StoredRanking } from '../../../../src/shared/search-layout';
import { simpleSlug } from '../../../../src/shared/search-text';

/** A page as the search index reads it: title, route, and the search terms of its sections. */
function page(route: string, title: string, sections: [heading: string, text: string][]): PageRecord {
  const analysed = [
    { level: 1 as const, heading: '', slug: '', text: `${title} introduction text.` },
    ...sections.map(([heading, text]) => ({ level: 2 as const, heading, slug: simpleSlug(heading), text })),
  ];
  const search = pageSearch(title, route, `About ${title}.`, analysed);
  return { route, title, search: { read: () => search } } as unknown as PageRecord;
}

const words = ['ledger', 'quota', 'relay', 'cursor', 'tenant', 'vault', 'mirror', 'beacon', 'signal', 'harbor'];

/**
 * Page `i` of a site whose pages' words vary from page to page; `extra` is added to its second section,
 * and `title` replaces its own.
 */
function sitePage(i: number, extra = '', title?: string, version = ''): PageRecord {
  const word = (k: number) => `${words[(i + k) % words.length] ?? ''}${Math.floor(i / 9) + k}`;
  const text = `The ${word(1)} keeps a ${word(2)} of every ${word(3)} it sends, and the ${word(4)} reads it back. `;
  return page(`${version}/area-${i % 30}/topic-${i}/`, title ?? `Topic ${word(0)}`, [
    [`Using the ${word(5)}`, text.repeat(3)],
    [`Limits of ${word(6)}`, text.repeat(2) + extra],
  ]);
}

const site = (n: number) => Array.from({ length: n }, (_, i) => sitePage(i));

const filesOf = async (pages: PageRecord[], previous?: PreviousSearch) =>
  searchFiles(await buildSearchIndex(pages), new Pace(), previous);

/** The rankings the term files carry, by key. */
const rankingsOf = (files: SearchFiles): ReadonlyMap<string, StoredRanking> => searchOf(files).rankings;

/** The search data of `files` as the next build reads it, each ranking's words to highlight replaced. */
function marked(files: SearchFiles): PreviousSearch {
  const previous = searchOf(files);
  const rankings = new Map([...previous.rankings].map(([key, ranking]) => [key, { ...ranking, t: ['kept'] }]));
  return { ...previous, rankings };
}

describe("the previous build's first results", () => {
  const before = site(400);

  it('make the same search files as none, whatever the edit', async () => {
    const previous = await filesOf(before);
    const edits = [
      // Words added to a section.
      before.map((p, i) => (i === 7 ? sitePage(7, 'A zephyr crossed the quota7 harbor. ') : p)),
      // Its title.
      before.map((p, i) => (i === 7 ? sitePage(7, '', 'Keeps and sends') : p)),
      // A section added: every section after it moves.
      before.map((p, i) => (i === 7 ? page('/area-7/topic-7/', 'Topic zephyr', [['Only', 'beacon']]) : p)),
      // A page removed.
      before.filter((_, i) => i !== 7),
    ];
    for (const after of edits) {
      expect(await filesOf(after, searchOf(previous))).toEqual(await filesOf(after));
    }
  });

  it('of another version, at another route and a page in twenty edited, make the same files and keep most rankings', async () => {
    const older = before.map((_, i) =>
      sitePage(i, i % 20 === 0 ? 'As it was in the older version. ' : '', undefined, '/v1'),
    );
    const lent = await filesOf(older);
    expect(await filesOf(before, searchOf(lent))).toEqual(await filesOf(before));
    const kept = [...rankingsOf(await filesOf(before, marked(lent))).values()].filter((r) => r.t[0] === 'kept');
    expect(kept.length).toBeGreaterThan(rankingsOf(lent).size / 2);
  });

  it('are kept where the edit did not touch the words ranked, and ranked again where it did', async () => {
    // The title of a page made of the site's most frequent words: it comes first for their beginnings.
    const after = before.map((p, i) => (i === 7 ? sitePage(7, '', 'Keeps and sends') : p));
    const earlier = await filesOf(before);
    const [previous, fresh] = [rankingsOf(earlier), rankingsOf(await filesOf(after))];
    const reused = rankingsOf(await filesOf(after, marked(earlier)));
    expect([...reused.keys()].sort()).toEqual([...fresh.keys()].sort());
    const differs = (key: string) => JSON.stringify(fresh.get(key)) !== JSON.stringify(previous.get(key));
    const changed = [...fresh.keys()].filter(differs);
    expect(changed).toEqual(expect.arrayContaining(['k', 'ke', 'kee', 'keep', 's', 'se', 'sen', 'send']));
    for (const key of changed) expect(reused.get(key)).toEqual(fresh.get(key));
    // Most beginnings of the site's frequent words read nothing the edit changed: kept.
    const kept = [...reused.values()].filter((ranking) => ranking.t[0] === 'kept');
    expect(kept.length).toBeGreaterThan(fresh.size / 2);
  });

  it('are ranked again when a title becomes exactly the word, its words the same', async () => {
    const retitled = (title: string) => before.map((p, i) => (i === 7 ? sitePage(7, '', title) : p));
    const earlier = await filesOf(retitled('Sends sends'));
    const after = retitled('Sends');
    const [previous, fresh] = [rankingsOf(earlier), rankingsOf(await filesOf(after))];
    expect(fresh.get('send')).not.toEqual(previous.get('send'));
    expect(rankingsOf(await filesOf(after, marked(earlier))).get('send')).toEqual(fresh.get('send'));
  });

  it('are ranked again when a word the prefix read is gone, or no longer among its most frequent', async () => {
    const cases: [string, PageRecord[], PageRecord[]][] = [
      // "k" begins few words: all of them are read, "kayak" too while it is there.
      ['k', before.map((p, i) => (i === 7 ? sitePage(7, '', 'Kayak') : p)), before],
      // "l" begins many: "lumen" on sixty pages is among its most frequent, on one it is not.
      [
        'l',
        before.map((p, i) => (i < 60 ? sitePage(i, 'The lumen. ') : p)),
        before.map((p, i) => (i < 1 ? sitePage(i, 'The lumen. ') : p)),
      ],
    ];
    for (const [key, earlierPages, after] of cases) {
      const earlier = await filesOf(earlierPages);
      const [previous, fresh] = [rankingsOf(earlier), rankingsOf(await filesOf(after))];
      expect(fresh.get(key)).not.toEqual(previous.get(key));
      expect(rankingsOf(await filesOf(after, marked(earlier))).get(key)).toEqual(fresh.get(key));
    }
  });

  it('are ranked again when a word the parts of a run-together word begin changed', async () => {
    // "workflow" is cut into "work" and "flow", both more frequent: "flowchart", a word "flow" begins, is read.
    const extra = (i: number) => `Work flows. ${i % 4 === 0 ? 'A workflow. ' : ''}`;
    const withFlows = (seven: boolean) =>
      before.map((_, i) => sitePage(i, extra(i), i === 7 ? (seven ? 'Work flowchart' : 'Work flux') : undefined));
    const earlier = await filesOf(withFlows(false));
    const after = withFlows(true);
    const [previous, fresh] = [rankingsOf(earlier), rankingsOf(await filesOf(after))];
    expect(fresh.get('workflow')).not.toEqual(previous.get('workflow'));
    expect(rankingsOf(await filesOf(after, marked(earlier))).get('workflow')).toEqual(fresh.get('workflow'));
  });

  it('are all ranked again when a page gains a section', async () => {
    const after = before.map((p, i) => (i === 7 ? page('/area-7/topic-7/', 'Topic zephyr', [['Only', 'beacon']]) : p));
    const reused = rankingsOf(await filesOf(after, marked(await filesOf(before))));
    expect([...reused.values()].filter((ranking) => ranking.t[0] === 'kept')).toEqual([]);
  });
});
