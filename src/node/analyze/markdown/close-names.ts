/**
 * The nearest of a list of lower-case names to a query, a few edits away at most. A short list is
 * scanned. A long one is looked up by symmetric deletion: a name within `d` edits of another shares with
 * it a word made by deleting at most `d` letters from each (a swap of neighbours is undone by deleting one
 * of its two letters on both sides). The index holds those words' hashes, so a look-up hashes the query's
 * few deletion words and compares only the names filed under them: a query near nothing compares with
 * nothing, and every answer equals that of the plain scan.
 */

import { editDistance } from '../../../shared/edit-distance';

/** Lists shorter than this are scanned: building an index would cost more than it saves. */
export const INDEX_FROM = 64;
/** Ids fit below this in an index entry, beside a 32-bit hash (53 bits in all: exact in a double). */
const ID_SPACE = 2 ** 21;
/**
 * The most entries an index may have (8 bytes each). A folder of thousands of pages with long names has
 * more deletion words than is worth holding: it is scanned, at a cost in proportion to the folder.
 */
const MAX_ENTRIES = 2 ** 22;

/** How much work the look-ups of an index have done: each known name they examined counts one. */
export interface SuggestionWork {
  examined: number;
}

/** A name of the list, by its position, and how many edits it is from the query. */
export interface Match {
  id: number;
  distance: number;
}

/** Lower-case names and the nearest of them to a lower-case query, `depth` edits away at most. */
export class CloseNames {
  /** Made on the first look-up; null for a list that is scanned. */
  private index: DeletionIndex | null | undefined;
  /** Per-query marks, so a name filed under several of the query's words is compared once. */
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(
    private readonly names: readonly string[],
    private readonly depth: number,
    private readonly work: SuggestionWork,
  ) {
    this.seen = new Uint32Array(names.length);
  }

  nearest(query: string): Match | undefined {
    const { names, depth, work } = this;
    this.index ??= names.length >= INDEX_FROM && fitsAnIndex(names, depth) ? new DeletionIndex(names, depth) : null;
    if (!this.index) return nearestOf(query, names, depth, names.keys(), work);
    return nearestOf(query, names, depth, this.once(this.index.candidates(query)), work);
  }

  /** The ids, each once. */
  private *once(ids: Iterable<number>): Generator<number> {
    const mark = ++this.stamp;
    for (const id of ids) {
      if (this.seen[id] === mark) continue;
      this.seen[id] = mark;
      yield id;
    }
  }
}

/** Of the names (lower case) with the ids given, the nearest to `query` within `limit` edits; the first wins a tie. */
export function nearestOf(
  query: string,
  names: readonly string[],
  limit: number,
  ids: Iterable<number>,
  work: SuggestionWork,
): Match | undefined {
  let best: Match | undefined;
  for (const id of ids) {
    work.examined++;
    const name = names[id] ?? '';
    const bound = best ? best.distance : limit;
    if (Math.abs(name.length - query.length) > bound) continue;
    const distance = editDistance(query, name, bound);
    if (distance < (best?.distance ?? limit + 1) || (best && distance === best.distance && id < best.id))
      best = { id, distance };
  }
  return best;
}

/**
 * Names filed under the hash of every word made by deleting at most `depth` of their letters; a query's
 * candidates are the names filed under its own such words, a superset of the names within `depth` edits.
 * Each entry is `hash × ID_SPACE + id` in one sorted array: a large site's routes take a few megabytes.
 */
class DeletionIndex {
  private readonly entries: Float64Array;

  constructor(
    names: readonly string[],
    private readonly depth: number,
  ) {
    const entries: number[] = [];
    names.forEach((name, id) => {
      for (const word of deletions(name, depth)) entries.push(hashOf(word) * ID_SPACE + id);
    });
    this.entries = Float64Array.from(entries).sort();
  }

  *candidates(query: string): Generator<number> {
    const { entries } = this;
    for (const word of deletions(query, this.depth)) {
      const first = hashOf(word) * ID_SPACE;
      for (let i = lowerBound(entries, first); i < entries.length && (entries[i] ?? 0) < first + ID_SPACE; i++) {
        yield (entries[i] ?? 0) - first;
      }
    }
  }
}

/** Whether the names' deletion words fit in an index: at most `MAX_ENTRIES`, and ids below `ID_SPACE`. */
function fitsAnIndex(names: readonly string[], depth: number): boolean {
  if (names.length >= ID_SPACE) return false;
  let entries = 0;
  for (const { length } of names) {
    // Words of `length - i` letters: at most "length choose i" of them.
    for (let i = 0, ways = 1; i <= depth; i++, ways = (ways * (length - i + 1)) / i) entries += ways;
  }
  return entries <= MAX_ENTRIES;
}

/** The word and every word made from it by deleting at most `depth` letters, each once. */
function deletions(word: string, depth: number): Set<string> {
  const out = new Set([word]);
  let level = [word];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const w of level) {
      for (let i = 0; i < w.length; i++) {
        const shorter = w.slice(0, i) + w.slice(i + 1);
        if (!out.has(shorter)) {
          out.add(shorter);
          next.push(shorter);
        }
      }
    }
    level = next;
  }
  return out;
}

/** 32-bit FNV-1a: two words with one hash only cost a comparison more. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The first index of a sorted array whose value is at least `value`. */
function lowerBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] ?? 0) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
