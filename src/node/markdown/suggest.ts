/**
 * "Did you mean" suggestions for a wrong route, anchor or constant name: the known name with the fewest
 * edits (case ignored), when it is close enough; the first in the list wins a tie.
 *
 * A site with many broken links asks this once per link against every route, so comparing each name
 * with every candidate made such a build quadratic. Long lists are indexed by their two-letter pieces
 * (bigrams): one edit changes at most three of a name's bigrams (a swap of neighbours: "abcd" → "acbd"
 * loses ab, bc and cd), so a candidate within `d` edits of a name shares one of any `3d + 1` of them; only
 * candidates holding one of the name's rarest bigrams are compared, with an edit distance that gives up
 * past `d`. Distances are tried from 0 upwards, so a close match costs a handful of comparisons, and every
 * answer equals that of the plain scan. Edits are counted as the search engine counts them
 * (src/shared/edit-distance.ts), so a swap of neighbouring letters is one.
 */

import { editDistance } from '../../shared/edit-distance';

/** Lists shorter than this are scanned: building an index would cost more than it saves. */
const INDEX_FROM = 64;
const GRAM = 2;
/** The most bigrams of a name one edit can change. */
const GRAMS_PER_EDIT = 3;

/** ` (did you mean "X"?)` for the closest known name, or nothing when none is close. */
export function closest(name: string, known: readonly string[]): string {
  const best = nearestName(name, known);
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}

/** The most edits a suggestion may be away from the name. */
export function suggestionLimit(name: string): number {
  return Math.max(3, Math.floor(name.length / 3));
}

const indexes = new WeakMap<readonly string[], NameIndex>();

/** The known name closest to `name`, or undefined when none is within `suggestionLimit(name)` edits. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const query = name.toLowerCase();
  const limit = suggestionLimit(name);
  if (known.length < INDEX_FROM) {
    let best: string | undefined;
    let bestDistance = limit + 1;
    for (const candidate of known) {
      const d = editDistance(query, candidate.toLowerCase(), bestDistance - 1);
      if (d < bestDistance) [best, bestDistance] = [candidate, d];
    }
    return best;
  }
  let index = indexes.get(known);
  if (!index) indexes.set(known, (index = new NameIndex(known)));
  return index.nearest(query, limit);
}

class NameIndex {
  private readonly lower: string[];
  private readonly byGram = new Map<string, number[]>();
  /** Candidate ids by length, each list ascending. */
  private readonly byLength = new Map<number, number[]>();
  private readonly answers = new Map<string, string | undefined>();
  /** Per-query marks, so a candidate in several postings is compared once. */
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(private readonly known: readonly string[]) {
    this.lower = known.map((name) => name.toLowerCase());
    this.seen = new Uint32Array(known.length);
    this.lower.forEach((name, id) => {
      pushTo(this.byLength, name.length, id);
      for (const gram of new Set(grams(name))) pushTo(this.byGram, gram, id);
    });
  }

  nearest(query: string, limit: number): string | undefined {
    if (this.answers.has(query)) return this.answers.get(query);
    let answer: string | undefined;
    for (let d = 0; d <= limit && answer === undefined; d++) {
      let best = -1;
      for (const id of this.candidates(query, d)) {
        if ((best < 0 || id < best) && editDistance(query, this.lower[id] ?? '', d) <= d) best = id;
      }
      if (best >= 0) answer = this.known[best];
    }
    this.answers.set(query, answer);
    return answer;
  }

  /** Every candidate that may be within `d` edits of the query (a superset; each at most once). */
  private *candidates(query: string, d: number): Generator<number> {
    const mark = ++this.stamp;
    const fits = (id: number) => {
      if (this.seen[id] === mark) return false;
      this.seen[id] = mark;
      return Math.abs((this.lower[id] ?? '').length - query.length) <= d;
    };
    const positions = grams(query);
    const needed = GRAMS_PER_EDIT * d + 1;
    if (positions.length < needed) {
      for (let length = query.length - d; length <= query.length + d; length++) {
        for (const id of this.byLength.get(length) ?? []) if (fits(id)) yield id;
      }
      return;
    }
    // The rarest bigrams first, until they cover `needed` positions of the query.
    const counts = new Map<string, number>();
    for (const gram of positions) counts.set(gram, (counts.get(gram) ?? 0) + 1);
    const rarest = [...counts].sort(
      ([a], [b]) => (this.byGram.get(a)?.length ?? 0) - (this.byGram.get(b)?.length ?? 0),
    );
    let covered = 0;
    for (const [gram, count] of rarest) {
      for (const id of this.byGram.get(gram) ?? []) if (fits(id)) yield id;
      covered += count;
      if (covered >= needed) return;
    }
  }
}

function pushTo<K>(map: Map<K, number[]>, key: K, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

function grams(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + GRAM <= text.length; i++) out.push(text.slice(i, i + GRAM));
  return out;
}
