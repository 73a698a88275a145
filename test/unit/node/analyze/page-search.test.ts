import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchEngine, runQuery } from '../../../../src/client/search/engine';
import type { SearchEntry } from '../../../../src/shared/search-layout';
import { TextStore } from '../../../../src/node/analyze/text-store';

/**
 * Every text the build turns into index terms, in the order it does. The tokenizer stays the real one:
 * this only notes what it is given, which is what a warm build must limit to the pages it renders.
 */
const tokenized = vi.hoisted(() => [] as string[]);
vi.mock('../../../../src/shared/search-text', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../src/shared/search-text')>();
  return {
    ...real,
    indexTerms: (text: string) => {
      tokenized.push(text);
      return real.indexTerms(text);
    },
    textChunks: (text: string, ascii?: boolean) => {
      tokenized.push(text);
      return real.textChunks(text, ascii);
    },
  };
});

let buildTree: typeof import('../../../helpers/tree').buildTree;
let makeTree: typeof import('../../../helpers/tree').makeTree;
let messages: typeof import('../../../helpers/tree').messages;
let buildOutput: typeof import('../../../helpers/output').buildOutput;
let terms: typeof import('../../../../src/node/analyze/page-search') &
  typeof import('../../../../src/node/analyze/stored-search');

beforeAll(async () => {
  // Unit test files share their modules (no isolation): the build is loaded again here, so that it
  // imports the tokenizer above and not one another file loaded before.
  vi.resetModules();
  ({ buildTree, makeTree, messages } = await import('../../../helpers/tree'));
  ({ buildOutput } = await import('../../../helpers/output'));
  terms = {
    ...(await import('../../../../src/node/analyze/page-search')),
    ...(await import('../../../../src/node/analyze/stored-search')),
  };
});

beforeEach(() => {
  tokenized.length = 0;
});

/** Three pages, each with a word no other page has, in its intro and under a heading. */
const site = {
  'README.md': '# Home\n\nThe zanzibar overview.\n\n## Harbour\n\nZanzibar ferries leave at dawn.\n',
  'birds.md': '# Birds\n\nThe quokka notes.\n\n## Feeding\n\nA quokka eats leaves and grass at night.\n',
  'music.md': '# Music\n\nThe marimba page.\n\n## Tuning\n\nEach marimba bar is tuned by hand.\n',
};

/** The routes (with their section anchors) a reader's query finds in the built site's search files. */
async function found(root: string, query: string): Promise<string[]> {
  const dir = path.join(root, 'dist/assets/js');
  const entryFile = readdirSync(dir).filter((name) => /^search\.[0-9a-f]+\.json$/.test(name));
  expect(entryFile).toHaveLength(1);
  const engine = new SearchEngine(JSON.parse(readFileSync(path.join(dir, entryFile[0] ?? ''), 'utf8')) as SearchEntry);
  const results = await runQuery(engine, query, async (names) => {
    for (const name of names) engine.read(name, readFileSync(path.join(dir, name), 'utf8'));
  });
  return (results?.groups ?? []).flatMap((group) => group.hits.map((hit) => hit.u));
}

describe("a page's search terms", () => {
  it('are made only for the pages a warm build renders; the others come with them from the cache', async () => {
    const root = await makeTree(site);
    expect(messages(await buildTree(root))).toEqual([]);
    // A cold build tokenizes every page.
    for (const word of ['Zanzibar', 'quokka', 'marimba']) expect(tokenized.join('\n')).toContain(word);

    tokenized.length = 0;
    const birds = path.join(root, 'content/birds.md');
    await writeFile(birds, readFileSync(birds, 'utf8').replaceAll('quokka', 'wombat'));
    const warm = await buildTree(root);
    expect(messages(warm)).toEqual([]);
    expect(warm.rendered).toBe(1);
    const texts = tokenized.join('\n');
    expect(texts).toContain('A wombat eats leaves');
    // Nothing of the unchanged pages is tokenized again: neither their text, nor their titles.
    for (const other of ['zanzibar', 'Zanzibar', 'marimba', 'Home', 'Music']) expect(texts).not.toContain(other);
  });

  it('follow a page whose text changed: a warm build finds its new words and no longer its old ones', async () => {
    const root = await makeTree(site);
    await buildTree(root);
    expect(await found(root, 'quokka')).toEqual(['/birds/', '/birds/#feeding']);
    expect(await found(root, 'wombat')).toEqual([]);

    const birds = path.join(root, 'content/birds.md');
    await writeFile(birds, readFileSync(birds, 'utf8').replaceAll('quokka', 'wombat'));
    expect((await buildTree(root)).rendered).toBe(1);
    expect(await found(root, 'wombat')).toEqual(['/birds/', '/birds/#feeding']);
    expect(await found(root, 'quokka')).toEqual([]);
    // The unchanged pages are still found, as before.
    expect(await found(root, 'marimba')).toEqual(['/music/', '/music/#tuning']);

    // And the whole output is what a cold build of the same pages makes.
    const cold = await makeTree({ ...site, 'birds.md': readFileSync(birds, 'utf8') });
    await buildTree(cold);
    expect(await buildOutput(root)).toEqual(await buildOutput(cold));
  });
});

describe("a page's stored search terms", () => {
  const sections = [
    { level: 1, heading: 'Nodes', slug: 'nodes', text: 'Nodes pass items along. Items flow, items wait.' },
    { level: 2, heading: 'Über die Knoten', slug: 'uber-die-knoten', text: 'Jeder Knoten verarbeitet Einträge.' },
    { level: 3, heading: 'Retry on fail', slug: 'retries', text: 'A failed node retries items 3 times.' },
  ] as const;

  it('read back as they were made, with the numbered terms of pages stored after them', () => {
    const numbers = new terms.SearchTermNumbers();
    const page = terms.pageSearch('Nodes', '/guide/nodes/', 'How nodes work', [...sections]);
    const stored = terms.storedSearch(page, numbers);
    const other = terms.pageSearch('Zebras', '/zoo/zebras/', '', [
      { level: 2, heading: 'Stripes', slug: 'stripes', text: 'Zebra stripes differ.' },
    ]);
    const storedOther = terms.storedSearch(other, numbers);
    // A build that reads them gets the terms as a list, as the cache file keeps it.
    const read = new terms.SearchTermNumbers(JSON.parse(JSON.stringify(numbers.list)) as string[]);
    expect(terms.searchFromStored(stored, read)).toEqual(page);
    expect(terms.searchFromStored(storedOther, read)).toEqual(other);
    // Each term is kept once, however many pages and lists have it.
    expect(new Set(numbers.list).size).toBe(numbers.list.length);
    expect(numbers.list).toContain('zebra');
    // The stored form is far smaller than the same terms as JSON.
    expect(stored.length).toBeLessThan(JSON.stringify(page).length / 2);
  });

  it('are put in the store in that form as a page is made, and read back from there as they were made', async () => {
    const texts = new TextStore(await mkdtemp(path.join(tmpdir(), 'stored-search-')));
    try {
      const numbers = new terms.SearchTermNumbers();
      const page = terms.pageSearch('Nodes', '/guide/nodes/', 'How nodes work', [...sections]);
      const put = terms.storedSearchSink(texts, numbers).put(page) as ReturnType<typeof terms.storedSearchAt>;
      expect(put.read()).toEqual(page);
      // What the render cache keeps of the page is that place: the terms are not stored a second time.
      expect(texts.bytes(put.place)).toEqual(terms.storedSearch(page, new terms.SearchTermNumbers()));
      expect(put.terms).toBe(numbers);
      // The cache keeps that place; terms held in memory, or numbered otherwise, are stored when it asks.
      expect(terms.storedPlaceOf(put, texts, numbers)).toEqual(put.place);
      const held = terms.storedPlaceOf(terms.heldSearch.put(page), texts, numbers);
      expect(held).not.toEqual(put.place);
      expect(terms.searchFromStored(texts.bytes(held), numbers)).toEqual(page);
      const other = new terms.SearchTermNumbers();
      const renumbered = terms.storedPlaceOf(put, texts, other);
      expect(terms.searchFromStored(texts.bytes(renumbered), other)).toEqual(page);
    } finally {
      texts.close();
    }
  });

  it('cut short, run on or naming a term the list lacks, fail with an error rather than read wrong', () => {
    const numbers = new terms.SearchTermNumbers();
    const stored = terms.storedSearch(terms.pageSearch('Nodes', '/nodes/', '', [...sections]), numbers);
    expect(() => terms.searchFromStored(stored.subarray(0, stored.length - 1), numbers)).toThrow(/cut short/);
    expect(() => terms.searchFromStored(Buffer.concat([stored, Buffer.from([0])]), numbers)).toThrow(/run on/);
    const fewer = new terms.SearchTermNumbers(numbers.list.slice(0, 2));
    expect(() => terms.searchFromStored(stored, fewer)).toThrow(/only 2 are numbered/);
  });
});
