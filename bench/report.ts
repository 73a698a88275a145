import os from 'node:os';
/** The bench's figures and how they are printed: one table, grouped by section, target and ✓/✗ beside each. */

/** `count`: a plain number of things (requests, routes, faults); `per-second`: a rate; `ratio`: one figure over another. */
export type Unit = 'ms' | 'bytes' | 'count' | 'per-second' | 'ratio';

export interface Target {
  /** The figure passes when it is below this value (or equal, with `inclusive`). */
  max?: number;
  inclusive?: boolean;
  /** Or, for a score: the figure passes when it is at least this value. */
  min?: number;
}

export interface Figure {
  section: string;
  name: string;
  /** null: not measured (the note says why). Never an invented number. */
  value: number | null;
  unit: Unit;
  target?: Target;
  /** The value is only a lower bound: the measurement was stopped before it finished. */
  atLeast?: boolean;
  note?: string;
}

export type Verdict = 'pass' | 'fail' | 'unknown' | 'none';

export function verdict(figure: Figure): Verdict {
  const { value, target } = figure;
  if (!target) return 'none';
  if (value === null) return 'unknown';
  const within =
    target.min !== undefined
      ? value >= target.min
      : target.max === undefined || (target.inclusive ? value <= target.max : value < target.max);
  if (figure.atLeast) return within ? 'unknown' : 'fail';
  return within ? 'pass' : 'fail';
}

export const KB = 1024;
export const MB = 1024 * 1024;

export function formatValue(value: number, unit: Unit): string {
  if (unit === 'count') return Math.round(value).toLocaleString('en');
  if (unit === 'per-second') return `${Math.round(value).toLocaleString('en')}/s`;
  if (unit === 'ratio') return `${value.toFixed(2)}×`;
  if (unit === 'ms') {
    if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
    if (value >= 100) return `${Math.round(value)} ms`;
    return `${value.toFixed(1)} ms`;
  }
  if (value >= MB) return `${(value / MB).toFixed(value >= 100 * MB ? 0 : 2)} MB`;
  if (value >= KB) return `${(value / KB).toFixed(1)} KB`;
  return `${value} B`;
}

function formatTarget(figure: Figure): string {
  const { target } = figure;
  if (!target) return '';
  if (target.min !== undefined) return `≥ ${formatValue(target.min, figure.unit)}`;
  if (target.max === undefined) return '';
  return `${target.inclusive ? '≤' : '<'} ${formatValue(target.max, figure.unit)}`;
}

const MARK: Record<Verdict, string> = { pass: '✓', fail: '✗', unknown: '?', none: '' };

/** Width in terminal columns; the box-drawing and check marks used here are all one column wide. */
const width = (text: string) => [...text].length;
const pad = (text: string, size: number) => text + ' '.repeat(Math.max(0, size - width(text)));

export function formatTable(figures: Figure[]): string {
  // One block per section, in the order sections first appear.
  const order = [...new Set(figures.map((f) => f.section))];
  const sorted = order.flatMap((s) => figures.filter((f) => f.section === s));
  const rows = sorted.map((f) => ({
    section: f.section,
    cells: [
      f.name,
      f.value === null ? 'not measured' : `${f.atLeast ? '> ' : ''}${formatValue(f.value, f.unit)}`,
      formatTarget(f),
      MARK[verdict(f)],
      f.note ?? '',
    ],
  }));
  const header = ['Figure', 'Value', 'Target', '', 'Note'];
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r.cells[i] ?? ''))));
  // The note column is last and may be long: it is not padded.
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [line(header), widths.map((w, i) => '─'.repeat(i === widths.length - 1 ? 4 : w)).join('  ')];
  let section = '';
  for (const row of rows) {
    if (row.section !== section) {
      section = row.section;
      out.push('', section.toUpperCase());
    }
    out.push(line(row.cells));
  }
  return out.join('\n');
}

export function summary(figures: Figure[]): string {
  const counts = { pass: 0, fail: 0, unknown: 0, none: 0 };
  for (const f of figures) counts[verdict(f)]++;
  const notMeasured = figures.filter((f) => f.value === null).length;
  return `${counts.pass} ✓ within target, ${counts.fail} ✗ over target, ${notMeasured} not measured (KB = 1024 bytes, MB = 1024 KB)`;
}

/**
 * Trees side by side: one row per figure name (the last column's names, in its order), one column per
 * tree with its value and ✓/✗, then the last column's target. A tree without that figure shows "—".
 */
export function formatComparison(columns: { name: string; figures: Figure[] }[]): string {
  const last = columns.at(-1)?.figures ?? [];
  const cell = (figure: Figure | undefined) => {
    if (!figure) return '—';
    if (figure.value === null) return 'not measured';
    const mark = MARK[verdict(figure)];
    return `${figure.atLeast ? '> ' : ''}${formatValue(figure.value, figure.unit)}${mark ? ` ${mark}` : ''}`;
  };
  const header = ['Figure', ...columns.map((c) => c.name), 'Target'];
  const rows = last.map((figure) => [
    figure.name,
    ...columns.map((c) => cell(c.figures.find((f) => f.name === figure.name))),
    formatTarget(figure),
  ]);
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The machine's load average over 1, 5 and 15 minutes, as the figures' notes give it. */
export const loadAverage = (): string =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
