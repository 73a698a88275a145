import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { shardFile, type SearchEntry, type TermShard } from '../../shared/search-layout';
import { contentHash, digestOfAll } from '../content-hash';
import type { SearchFiles } from '../site/search-files';
import { previousSearchOf, type PreviousSearch } from '../site/search-previous';
import type { FolderUpdate } from './folder-update';

/** Where `manifest/` keeps the search data's entry; its shards are beside it, by their names (`shardFile`). */
export const SEARCH_ENTRY_FILE = 'search.json';

/**
 * The key `manifest/`'s search entry is written with (output ledger): its bytes and the code that made
 * them, so that a build finds in the ledger whether the published search data is its own code's.
 */
export const searchEntryKey = (entry: string, version: string): string =>
  digestOfAll(['search entry', version, contentHash(entry)]);

/**
 * The search data in the `manifest/` that `manifest` updates, when its ledger says this build's code
 * (`version`, the texts' version) made it and nothing touched it since, and every term file is whole;
 * otherwise undefined, and every first result is ranked.
 */
export async function previousSearch(manifest: FolderUpdate, version: string): Promise<PreviousSearch | undefined> {
  const manifestDir = manifest.root;
  try {
    const text = await readFile(path.join(manifestDir, SEARCH_ENTRY_FILE), 'utf8');
    if (!manifest.asLeft(SEARCH_ENTRY_FILE, searchEntryKey(text, version))) return undefined;
    const entry = JSON.parse(text) as SearchEntry;
    const texts = await Promise.all(
      entry.terms.map(async (_, n) => {
        const name = shardFile(entry, 'terms', n);
        const data = await readFile(path.join(manifestDir, name), 'utf8');
        // Named by a hash of its bytes: a file whose bytes are not those is not the one published.
        if (!name.includes(`.${contentHash(data)}.json`)) throw new Error(`${name} is damaged`);
        return [name, data] as const;
      }),
    );
    return searchOfTerms(entry, new Map(texts));
  } catch {
    return undefined;
  }
}

/** Search data made in this build, read as `previousSearch` reads the published one. */
export function searchOf(files: SearchFiles): PreviousSearch {
  const entry = JSON.parse(files.entry) as SearchEntry;
  return searchOfTerms(entry, new Map(files.shards.map((shard) => [shard.name, shard.data])));
}

/** The search data of `entry` with its term files' texts by name. */
function searchOfTerms(entry: SearchEntry, texts: ReadonlyMap<string, string>): PreviousSearch {
  const shards = entry.terms.map((_, n) => JSON.parse(texts.get(shardFile(entry, 'terms', n)) ?? '') as TermShard);
  return previousSearchOf(entry, shards);
}

/**
 * What the sites of one build lend each other of their search data: the versions of a site are most of
 * them the same pages, and a version without published search data of its own keeps the first results
 * of the one built before it wherever its words are the same (`earlierRankings`), rather than rank every
 * frequent word again. Only a version's first build: a site's own published data is nearer to it.
 */
export interface SearchLending {
  /** The search data lent to the site, read only if it has none of its own. */
  lent: () => PreviousSearch | undefined;
  /** Told the search data the site made. */
  made: (files: SearchFiles) => void;
}
