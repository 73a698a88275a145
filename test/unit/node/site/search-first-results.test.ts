import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchEngine } from '../../../../src/client/search/engine';
import { SearchShards } from '../../../../src/client/search/shards';
import { importSite } from '../../../../src/node/import/import-site';
import { typedQueries } from '../../../../src/node/site/search-first-results';
import { SearchRanker } from '../../../../src/shared/search-ranker';
import { rankingKey, storedRanking } from '../../../../src/shared/search-stored-ranking';
import {
  shardFiles,
  shardFor,
  shardKindOf,
  type LetterShard,
  type SearchEntry,
  type TermShard,
} from '../../../../src/shared/search-layout';
import { builtContent, builtTree, type BuiltContent } from '../../../helpers/built-content';
import { projectRoot } from '../../../helpers/tree';

/** A built site's search data as the browser gets it: the entry and every shard, by name. */
interface BuiltSearch {
  entry: SearchEntry;
  files: Map<string, string>;
}

async function builtSearch({ root, ok, messages }: BuiltContent): Promise<BuiltSearch> {
  if (!ok) throw new Error(`the site does not build:\n${messages.join('\n')}`);
  const read = (name: string) => readFile(path.join(root, 'manifest', name), 'utf8');
  const entry = JSON.parse(await read('search.json')) as SearchEntry;
  const files = new Map<string, string>();
  for (const name of shardFiles(entry)) files.set(name, await read(name));
  return { entry, files };
}

/** An engine that has read the shards of the given kinds, and no other. */
function engineWith(site: BuiltSearch, kinds: string[]): SearchEngine {
  const engine = new SearchEngine(site.entry);
  for (const [name, data] of site.files) if (kinds.includes(shardKindOf(name) ?? '')) engine.read(name, data);
  return engine;
}

const shardsOf = <T>(site: BuiltSearch, kind: string) =>
  [...site.files].filter(([name]) => shardKindOf(name) === kind).map(([, data]) => JSON.parse(data) as T);

/** The vocabulary, most frequent first (postings over every field, from the letter files), as the build takes it. */
function byFrequency(site: BuiltSearch): string[] {
  const frequency = new Map<string, number>();
  for (const letters of shardsOf<LetterShard>(site, 'letters')) {
    if (letters.w !== '') letters.w.split(' ').forEach((word, v) => frequency.set(word, letters.f[v] ?? 0));
  }
  return [...frequency.keys()].sort((a, b) => (frequency.get(b) ?? 0) - (frequency.get(a) ?? 0) || (a < b ? -1 : 1));
}

/**
 * Sites built as a writer builds them, with the least each carries: the frequent words whose queries the
 * term files answer, and the sections they hold (a site's details bound them).
 */
const trees: [name: string, build: () => Promise<BuiltContent>, expected: { words: number; sections: number }][] = [
  ['content/', builtContent, { words: 20, sections: 200 }],
  [
    'the VuePress 1 fixture, imported',
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'docs-first-results-'));
      const source = path.join(projectRoot, 'test/fixtures/vuepress1');
      await importSite({ source, out: path.join(root, 'content') });
      return builtTree(root);
    },
    { words: 2, sections: 5 },
  ],
];

describe.each(trees)('the first results the term files of %s carry', (_name, build, expected) => {
  let built: BuiltContent | undefined;
  let site: BuiltSearch;

  beforeAll(async () => {
    built = await build();
    site = await builtSearch(built);
  }, 240_000);
  afterAll(() => built?.release());

  it("are the engine's first results of its most frequent words, as they are typed, drawn without a detail file", () => {
    const whole = engineWith(site, ['letters', 'terms', 'details']);
    const termsOnly = engineWith(site, ['letters', 'terms']);
    // The words are carried most frequent first, until the carried sections cost as much as the details.
    let carried = 0;
    for (const word of byFrequency(site)) {
      const queries = typedQueries(word);
      if (queries.some((query) => termsOnly.search(query).missing.length > 0)) break;
      for (const query of queries) {
        // What the reader sees from the term files alone is the engine's whole answer, scores included.
        expect(termsOnly.search(query), query).toEqual(whole.search(query));
      }
      carried++;
    }
    expect(carried).toBeGreaterThanOrEqual(expected.words);
  });

  it("carry rankings that are the engine's own for their keys, in the file the worker looks in, with the sections they show", () => {
    const shards = new SearchShards(site.entry);
    for (const [name, data] of site.files) shards.read(name, data);
    const ranker = new SearchRanker(shards);
    const { pageStart } = shards;
    let rankings = 0;
    let carried = 0;
    shardsOf<TermShard>(site, 'terms').forEach((shard, n) => {
      const shown = new Set<number>();
      for (const [key, stored] of Object.entries(shard.q ?? {})) {
        expect(rankingKey(key), key).toBe(key);
        expect(shardFor(site.entry.terms, key), `the file of ${key}`).toBe(n);
        // The stored ranking is what the engine ranks for the key over every file of the site.
        expect(storedRanking(key, stored), key).toEqual(ranker.rank(key));
        for (const [, hits] of stored.s) for (const [id] of hits) shown.add(id);
        rankings++;
      }
      // A file's sections are those of its rankings, no more.
      const sections = (shard.s ?? []).flatMap(([p, , , list]) => list.map(([i]) => (pageStart[p] ?? 0) + i));
      expect(new Set(sections), `the sections of file ${n}`).toEqual(shown);
      carried += sections.length;
    });
    expect(rankings).toBeGreaterThanOrEqual(expected.words);
    expect(carried).toBeGreaterThanOrEqual(expected.sections);
  }, 180_000);
});
