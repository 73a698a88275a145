/**
 * The lines a fence marks, written after its language in the info string: `{1,4-6}` → {1,4,5,6};
 * undefined when the text is not a line range list.
 */
export function parseLineRanges(spec: string): Set<number> | undefined {
  const inner = /^\{([\d,\s-]*)\}$/.exec(spec.trim())?.[1];
  if (inner === undefined) return undefined;
  const lines = new Set<number>();
  for (const part of inner
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [from, to] = part.split('-').map(Number);
    if (from === undefined || Number.isNaN(from)) return undefined;
    const end = to === undefined || Number.isNaN(to) ? from : to;
    for (let n = from; n <= end && n - from < 10_000; n++) lines.add(n);
  }
  return lines;
}
