import { describe, expect, it } from 'vitest';
import { SearchEngine, runQuery } from '../../../../src/client/search/engine';
import type { PageRecord } from '../../../../src/node/analyze/page-record';
import { pageSearch } from '../../../../src/node/analyze/page-search';
import { contentHash } from '../../../../src/node/content-hash';
import { buildSearchFiles, searchFiles } from '../../../../src/node/site/search-files';
import { FIELD, buildSearchIndex } from '../../../../src/node/site/search-index';
import {
  shardFile,
  shardFiles,
  shardKindOf,
  type DetailShard,
  type LetterShard,
  type SearchEntry,
  type TermShard,
} from '../../../../src/shared/search-layout';
import { EXCERPT_LENGTH, simpleSlug } from '../../../../src/shared/search-text';

/** A page as the search index reads it: title, route, and the search terms of its analysed sections. */
function page(route: string, title: string, sections: [heading: string, text: string][]): PageRecord {
  const description = `About ${title}.`;
  const analysed = [
    { level: 1 as const, heading: '', slug: '', text: `${title} introduction text.` },
    ...sections.map(([heading, text]) => ({ level: 2 as const, heading, slug: simpleSlug(heading), text })),
  ];
  const search = pageSearch(title, route, description, analysed);
  return { route, title, description, search: { read: () => search } } as unknown as PageRecord;
}

const words = ['ledger', 'quota', 'relay', 'cursor', 'tenant', 'vault', 'mirror', 'beacon', 'signal', 'harbor'];

/** A site of `n` pages with sections whose words vary from page to page, like a real one's. */
function site(n: number): PageRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const word = (k: number) => `${words[(i + k) % words.length] ?? ''}${Math.floor(i / 7) + k}`;
    const text = `The ${word(1)} keeps a ${word(2)} of every ${word(3)} it sends, and the ${word(4)} reads it back. `;
    return page(`/area-${i % 40}/topic-${i}/`, `Topic ${word(0)}`, [
      [`Using the ${word(5)}`, text.repeat(4)],
      [`Limits of ${word(6)}`, text.repeat(3)],
    ]);
  });
}

describe('the search index', () => {
  it('has one record per section, with its page, excerpt, level and an id only where needed', async () => {
    const index = await buildSearchIndex([
      page('/a/', 'Alpha', [
        ['First part', 'one two three'],
        ['Second part', 'four five six'],
      ]),
      page('/b/', 'Beta', [['Why? Because.', 'seven']]),
    ]);
    expect(index.pages).toEqual([
      {
        t: 'Alpha',
        u: '/a/',
        r: [
          ['', 'About Alpha.', 1],
          ['First part', 'one two three', 2],
          ['Second part', 'four five six', 2],
        ],
      },
      { t: 'Beta', u: '/b/', r: expect.arrayContaining([['Why? Because.', 'seven', 2]]) as unknown },
    ]);
    expect(index.words.get('alpha')?.postings[FIELD.title]).toEqual([0]);
    expect(index.words.get('part')?.postings[FIELD.heading]).toEqual([1, 2]);
    expect(index.headingKeys.get('first part')).toEqual([1]);
    // Fuse indexes by first letter of the title and heading words; stop words ("why because") are left out.
    expect([...index.fuzzy.keys()].sort()).toEqual(['a', 'b', 'f', 'p', 's']);
  });

  it('indexes the words of long sections beyond the excerpt as text', async () => {
    const long = `${'Introductory words repeat here. '.repeat(20)} Then the bucket holds a parquet archive.`;
    const index = await buildSearchIndex([page('/s3/', 'Storage', [['Archive', long]])]);
    const [, x] = index.pages[0]?.r[1] ?? [];
    expect(x?.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 1);
    expect(x?.endsWith('…')).toBe(true);
    expect(index.words.get('parquet')?.postings[FIELD.text]).toEqual([1]);
    expect(index.words.get('bucket')?.postings[FIELD.text]).toEqual([1]);
  });
});

describe('the search files', () => {
  it('stop being made when they are out of date before they are done (a save in npm run dev)', async () => {
    const pages = site(3000);
    const stale = new AbortController();
    stale.abort(new Error('a page was saved'));
    await expect(buildSearchFiles(pages, stale.signal)).rejects.toThrow('a page was saved');
    // Unstopped, the same pages make the same files as before.
    const [made, again] = [await buildSearchFiles(pages), await buildSearchFiles(pages)];
    expect(made.entry).toBe(again.entry);
  });

  it('keep the entry and every shard small on a large site, with whole excerpts', async () => {
    const files = await searchFiles(await buildSearchIndex(site(3000)));
    const entry = JSON.parse(files.entry) as SearchEntry;
    expect(entry.sections).toHaveLength(3000);
    // The entry holds a number per page and a key per shard, nothing per word or section.
    expect(files.entry.length).toBeLessThan(3000 * 3 + 40_000);
    expect(files.shards.length).toBe(entry.letters.length + entry.terms.length + entry.details.length);
    // A term shard may grow to three times its usual size to keep words that start alike together.
    for (const shard of files.shards) expect(shard.data.length, shard.name).toBeLessThan(150_000);
    // Results show whole excerpts however large the site: only the pages shown load theirs.
    const excerpts = files.shards
      .filter((s) => s.name.includes('/details.'))
      .flatMap((s) => (JSON.parse(s.data) as DetailShard).pages.flatMap((p) => p.r.map(([, x]) => x.length)));
    expect(Math.max(...excerpts)).toBeGreaterThan(EXCERPT_LENGTH - 10);
  });

  it('file each character of the vocabulary in one letter shard, and name every shard by its own content', async () => {
    const files = await searchFiles(await buildSearchIndex(site(800)));
    const entry = JSON.parse(files.entry) as SearchEntry;
    expect(files.shards.every((s) => s.name.endsWith(`.${contentHash(s.data)}.json`))).toBe(true);
    expect(files.shards.map((s) => s.name)).toEqual(shardFiles(entry));
    const firstLetters = entry.letters.map((_, n) => {
      const shard = JSON.parse(files.shards.find((s) => s.name === shardFile(entry, 'letters', n))?.data ?? '');
      return new Set((shard as LetterShard).w.split(' ').map((w) => w[0]));
    });
    firstLetters.forEach((letters, n) =>
      firstLetters.slice(n + 1).forEach((other) => expect([...letters].filter((l) => other.has(l))).toEqual([])),
    );
  });

  it('answer a query through the engine, down to a page in the last detail shard', async () => {
    const pages = site(1200);
    pages.push(page('/last/', 'Quillwort retention', [['Keeping quillwort logs', 'How long the logs stay.']]));
    const files = await searchFiles(await buildSearchIndex(pages));
    const entry = JSON.parse(files.entry) as SearchEntry;
    const engine = new SearchEngine(entry);
    const byName = new Map(files.shards.map((s) => [s.name, s.data]));
    const loaded: string[] = [];
    const results = await runQuery(engine, 'quillwort', async (names) => {
      for (const name of names) {
        loaded.push(name);
        engine.read(name, byName.get(name) ?? '');
      }
    });
    expect(results?.groups[0]?.url).toBe('/last/');
    expect(results?.groups[0]?.hits.map((h) => h.u)).toEqual(['/last/', '/last/#keeping-quillwort-logs']);
    expect(loaded).toContain(shardFile(entry, 'details', entry.details.length - 1));
    // A query loads a few shards, not the site's.
    expect(loaded.length).toBeLessThan(8);
    expect(loaded.length).toBeLessThan(files.shards.length / 10);
  });

  it('give the top of a long list first, while the rest of its details load', async () => {
    const files = await searchFiles(await buildSearchIndex(site(1200)));
    const engine = new SearchEngine(JSON.parse(files.entry) as SearchEntry);
    const byName = new Map(files.shards.map((s) => [s.name, s.data]));
    const tops: string[][] = [];
    const urls = (groups: { url: string }[]) => groups.map((g) => g.url);
    const results = await runQuery(
      engine,
      // Every fortieth page is in area 17: its results are spread over many detail shards, and those
      // that also have "limits" are not among the first results of any of the three words alone.
      'area 17 limits',
      async (names) => names.forEach((name) => engine.read(name, byName.get(name) ?? '')),
      () => false,
      (top) => tops.push(urls(top.groups)),
    );
    expect(results?.total).toBe(20);
    expect(tops).toHaveLength(1);
    const top = tops[0] ?? [];
    expect(top.length).toBeGreaterThan(0);
    expect(top.length).toBeLessThan(urls(results?.groups ?? []).length);
    expect(urls(results?.groups ?? []).slice(0, top.length)).toEqual(top);
  });

  it('answer a frequent word, or two, from a handful of files, drawn before any detail file', async () => {
    const files = await searchFiles(await buildSearchIndex(site(3000)));
    const entry = JSON.parse(files.entry) as SearchEntry;
    const byName = new Map(files.shards.map((s) => [s.name, s.data]));
    const frequency = new Map<string, number>();
    for (const shard of files.shards.filter((s) => shardKindOf(s.name) === 'letters')) {
      const letters = JSON.parse(shard.data) as LetterShard;
      letters.w.split(' ').forEach((word, v) => frequency.set(word, letters.f[v] ?? 0));
    }
    const frequent = [...frequency]
      .filter(([word]) => /^[a-z]+$/.test(word))
      .sort(([, a], [, b]) => b - a)
      .slice(0, 12)
      .map(([word]) => word);
    /** The files a first query loads in all, and those it loaded before its first results were drawn. */
    const first = async (query: string) => {
      const engine = new SearchEngine(entry);
      const loaded: string[] = [];
      let beforeDrawn: string[] | undefined;
      const results = await runQuery(
        engine,
        query,
        async (names) => {
          loaded.push(...names);
          for (const name of names) engine.read(name, byName.get(name) ?? '');
        },
        () => false,
        () => (beforeDrawn = [...loaded]),
      );
      expect(results?.total, query).toBeGreaterThan(0);
      return { loaded, drawnAfter: beforeDrawn ?? loaded };
    };
    const details = (names: string[]) => names.filter((name) => shardKindOf(name) === 'details');
    for (const word of frequent) {
      const { loaded } = await first(word);
      expect(loaded.length, `${word}: ${loaded.join(' ')}`).toBeLessThanOrEqual(5);
      expect(details(loaded), word).toEqual([]);
    }
    // A word being typed: its term file holds the words it begins, so one term file answers it, and
    // carries what the first results of the word's beginning show, which rank without the word's exact
    // title or heading first.
    for (const word of frequent.filter((w) => w.length >= 5)) {
      for (const typed of [word.slice(0, 4), word.slice(0, -1)]) {
        const { loaded, drawnAfter } = await first(typed);
        expect(
          loaded.filter((name) => shardKindOf(name) === 'terms'),
          typed,
        ).toHaveLength(1);
        expect(details(drawnAfter), typed).toEqual([]);
      }
    }
    for (const [i, word] of frequent.slice(1).entries()) {
      const query = `${frequent[i] ?? ''} ${word}`;
      const { loaded, drawnAfter } = await first(query);
      expect(drawnAfter.length, `${query}: ${drawnAfter.join(' ')}`).toBeLessThanOrEqual(6);
      expect(details(drawnAfter), query).toEqual([]);
      expect(loaded.length, `${query}: ${loaded.join(' ')}`).toBeLessThanOrEqual(12);
    }
  });

  it('draw a word being typed before any detail file, also when the word typed out is an exact title', async () => {
    // Pages titled by one word, each with a section headed by it, spread among other pages: the word typed
    // out shows those pages' intros first (exact titles); its beginning shows their sections first.
    const pages = Array.from({ length: 3000 }, (_, i) =>
      i % 10 === 0
        ? page(`/copy-${i}/gateway/`, 'Gateway', [
            ['Routing through the gateway', 'The gateway passes packets on.'],
            ['Other matters', 'Unrelated words.'],
          ])
        : page(`/copy-${i}/topic/`, `Topic ${i}`, [['Notes', `Filler ledger${i} quota${i} relay${i}. `.repeat(3)]]),
    );
    const files = await searchFiles(await buildSearchIndex(pages));
    const entry = JSON.parse(files.entry) as SearchEntry;
    const byName = new Map(files.shards.map((s) => [s.name, s.data]));
    expect(entry.details.length).toBeGreaterThan(10);
    for (const typed of ['gate', 'gatew', 'gateway']) {
      const engine = new SearchEngine(entry);
      const loaded: string[] = [];
      let drawnAfter: string[] | undefined;
      const results = await runQuery(
        engine,
        typed,
        async (names) => {
          loaded.push(...names);
          for (const name of names) engine.read(name, byName.get(name) ?? '');
        },
        () => false,
        () => (drawnAfter ??= [...loaded]),
      );
      expect(results?.groups[0]?.url, typed).toBe('/copy-0/gateway/');
      expect(results?.groups[0]?.hits[0]?.h, typed).toBe(typed === 'gateway' ? '' : 'Routing through the gateway');
      expect(
        (drawnAfter ?? loaded).filter((name) => shardKindOf(name) === 'details'),
        typed,
      ).toEqual([]);
    }
  });

  it('carry in the term shards the same title, route, heading and excerpt as the detail shards', async () => {
    const files = await searchFiles(await buildSearchIndex(site(1200)));
    const entry = JSON.parse(files.entry) as SearchEntry;
    const pages = entry.details.flatMap(
      (_, n) =>
        (JSON.parse(files.shards.find((s) => s.name === shardFile(entry, 'details', n))?.data ?? '') as DetailShard)
          .pages,
    );
    let carried = 0;
    for (const shard of files.shards.filter((s) => shardKindOf(s.name) === 'terms')) {
      for (const [p, t, u, sections] of (JSON.parse(shard.data) as TermShard).s ?? []) {
        expect({ t, u }).toEqual({ t: pages[p]?.t, u: pages[p]?.u });
        for (const [n, ...section] of sections) expect(section).toEqual(pages[p]?.r[n]);
        carried += sections.length;
      }
    }
    expect(carried).toBeGreaterThan(1000);
  });
});
