/**
 * The resilience figures of issue 6, read from the summaries the resilience tests and the accessibility
 * test write into test-results/ (`npm run bench:resilience` runs them first). The tests assert; this only
 * reports, with the date each summary was taken. A missing summary is "not measured", never a number.
 */
import { readFile } from 'node:fs/promises';
import { SUMMARIES } from '../test/resilience/summaries';
import type { Figure, Unit } from './report';

const SECTION = 'Resilience';
const NONE = { max: 0, inclusive: true };

type Summary = Record<string, unknown> & { date?: string };
type Reader = (summary: Summary) => Omit<Figure, 'section'>[];

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const count = (name: string, value: unknown, failures = false): Omit<Figure, 'section'> => ({
  name,
  value: num(value),
  unit: 'count',
  ...(failures ? { target: NONE } : {}),
});
/** `a - b`, or null (not measured) when either is missing: NaN never reaches the report. */
const difference = (a: unknown, b: unknown) => num((num(a) ?? NaN) - (num(b) ?? NaN));

/** The browser faults of one half of the fault matrix (test/resilience/fault-matrix.ts). */
function faultsReader(
  key: keyof typeof SUMMARIES,
  when: string,
): { key: keyof typeof SUMMARIES; what: string; read: Reader } {
  return {
    key,
    what: `browser faults ${when}`,
    read: (s) => [
      count(`browser faults injected ${when}`, s['injected']),
      count(`browser faults not survived ${when}`, difference(s['injected'], s['survived']), true),
    ],
  };
}

/** One reader per summary: which figures it yields, in the order the report prints them. */
const READERS: { key: keyof typeof SUMMARIES; what: string; read: Reader }[] = [
  faultsReader('faultsFirstLoad', 'on a first load'),
  faultsReader('faultsAfterNavigation', 'after a navigation'),
  {
    key: 'badInputs',
    what: 'bad build inputs',
    read: (s) => [
      count('bad build inputs tried', s['tried']),
      count('bad build inputs mishandled', difference(s['tried'], s['handled']), true),
    ],
  },
  {
    key: 'fuzz',
    what: 'markdown fuzzing',
    read: (s) => [
      count('random pages through the markdown pass', s['runs']),
      count('fuzz properties failing', s['failures'], true),
    ],
  },
  {
    key: 'load',
    what: 'the load run',
    read: (s) => [
      count('requests served under load', s['requests']),
      rate('requests per second', s['requestsPerSecond']),
      { name: 'latency p99 under load', value: num(s['latencyP99Ms']), unit: 'ms' as Unit },
      count('errors and timeouts under load', num((num(s['errors']) ?? NaN) + (num(s['timeouts']) ?? NaN)), true),
    ],
  },
  {
    key: 'axe',
    what: 'axe',
    read: (s) => {
      const themes = Object.values((s['themes'] ?? {}) as Record<string, { routes?: number; violations?: number }>);
      const total = (field: 'routes' | 'violations') =>
        themes.length === 0 ? null : themes.reduce((n, t) => n + (num(t[field]) ?? NaN), 0);
      return [
        count(`route checks by axe (${themes.length} themes)`, total('routes')),
        count('serious or critical axe violations', total('violations'), true),
      ];
    },
  },
  {
    key: 'audit',
    what: 'npm audit',
    read: (s) => [count('high or critical advisories (npm audit --omit=dev)', highOrCritical(s), true)],
  },
];

function rate(name: string, value: unknown): Omit<Figure, 'section'> {
  return { name, value: num(value), unit: 'per-second' };
}

/** The audit summary counts advisories per severity, at its top level or under `counts`. */
function highOrCritical(summary: Summary): number | null {
  const counts = (summary['counts'] ?? summary) as Record<string, unknown>;
  const high = num(counts['high']);
  const critical = num(counts['critical']);
  return high === null || critical === null ? null : high + critical;
}

export async function resilienceFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const { key, what, read } of READERS) {
    let summary: Summary | undefined;
    try {
      summary = JSON.parse(await readFile(SUMMARIES[key], 'utf8')) as Summary;
    } catch {
      summary = undefined;
    }
    for (const figure of read(summary ?? {})) {
      const taken = summary?.date?.slice(0, 16).replace('T', ' ') ?? 'at an unknown date';
      // A summary may say why its check could not run (the audit endpoint unreachable, for one).
      const reason = typeof summary?.['reason'] === 'string' ? summary['reason'] : '';
      const note = !summary
        ? `not measured: no ${what} summary; run npm run bench:resilience`
        : figure.value === null && reason
          ? `not measured (${taken}): ${reason}`
          : `measured ${taken}`;
      figures.push({ section: SECTION, ...figure, note });
    }
  }
  return figures;
}
