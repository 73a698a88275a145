/**
 * How many edits apart two words are, for the two places that forgive a typo: the search engine (browser)
 * matching a query word to the index's words, and the build's "did you mean" for a wrong route, anchor or
 * constant (src/node/analyze/markdown/suggest.ts). Both count a swap of neighbouring letters as one edit, the
 * typo readers and writers make most.
 */

/** Rows reused between calls: the engine compares a query word with many candidates per keystroke. */
let rows = [new Uint32Array(64), new Uint32Array(64), new Uint32Array(64)] as const;

/**
 * Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps) from `a` to `b`,
 * or with `prefix` to the closest of `b`'s beginnings one shorter, as long or one longer than `a`. Gives
 * `max + 1` as soon as the distance is known to exceed `max`: only the cells within `max` of the diagonal
 * are filled (any other is further than `max`), and the walk stops once a whole row is past `max`.
 */
export function editDistance(a: string, b: string, max = 2, prefix = false): number {
  if (a === b) return 0;
  const over = max + 1;
  if (max < 0) return over;
  const columns = prefix ? Math.min(b.length, a.length + 1) : b.length;
  if (prefix ? a.length - columns > max : Math.abs(a.length - b.length) > max) return over;
  if (rows[0].length < columns + 2) {
    rows = [new Uint32Array(columns + 2), new Uint32Array(columns + 2), new Uint32Array(columns + 2)];
  }
  let [before, previous, row] = rows;
  for (let j = 0; j <= columns + 1; j++) previous[j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(columns, i + max);
    row[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    let least = row[lo - 1] ?? over;
    const ch = a.charCodeAt(i - 1);
    const chBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let value = Math.min(
        (previous[j] ?? over) + 1,
        (row[j - 1] ?? over) + 1,
        (previous[j - 1] ?? over) + (ch === bj ? 0 : 1),
      );
      if (j > 1 && ch === b.charCodeAt(j - 2) && chBefore === bj) value = Math.min(value, (before[j - 2] ?? over) + 1);
      if (value > over) value = over;
      row[j] = value;
      if (value < least) least = value;
    }
    row[hi + 1] = over;
    if (least > max) return over;
    [before, previous, row] = [previous, row, before];
  }
  if (!prefix) return Math.min(previous[columns] ?? over, over);
  let best = over;
  for (let j = Math.max(0, a.length - 1); j <= columns; j++) best = Math.min(best, previous[j] ?? best);
  // A word shorter than `a` is compared whole.
  if (columns === b.length) best = Math.min(best, previous[columns] ?? best);
  return best;
}
