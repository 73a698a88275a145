import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/tree';
import { SUMMARIES } from './summaries';

/**
 * `npm audit --omit=dev`: the dependencies that ship (the build and the preview server) have no high or
 * critical advisory. The registry's audit endpoint is asked for real; when it cannot be reached the test
 * fails with one line saying why, since an audit that did not run proves nothing. The counts per severity
 * go to test-results/audit-summary.json for `npm run bench:resilience`.
 */

const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'] as const;
type Severity = (typeof SEVERITIES)[number];

/** Generous for a slow registry, and still inside the project's 120 s test timeout. */
const TIMEOUT_MS = 90_000;

interface Advisory {
  title?: string;
  url?: string;
  severity?: string;
}

/** The parts of npm's audit report (auditReportVersion 2) this test reads. */
interface AuditReport {
  vulnerabilities: Record<string, { severity: Severity; via: (string | Advisory)[] }>;
  metadata: { vulnerabilities: Record<Severity | 'total', number>; dependencies?: { prod?: number } };
}

type AuditOutcome = { reached: true; report: AuditReport } | { reached: false; reason: string };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function npmAudit(): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['audit', '--omit=dev', '--json'],
      { cwd: projectRoot, timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // npm audit exits 1 when it finds anything, so the exit code alone says little; the JSON decides.
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, timedOut: Boolean(error?.killed) });
      },
    );
  });
}

/** npm's own words for a failed audit: the JSON error's message, else its `npm error` lines. */
function failureText(json: unknown, stderr: string): string {
  const record = (json ?? {}) as { message?: string; error?: { summary?: string; code?: string } };
  const fromJson = record.message || record.error?.summary || record.error?.code;
  if (fromJson) return fromJson.trim();
  const lines = stderr.split('\n').filter((l) => /^npm (error|warn audit)/.test(l) && !/complete log/.test(l));
  return lines.map((l) => l.replace(/^npm (error|warn) /, '')).join('; ') || 'no report and no error message';
}

function outcomeOf(run: Run): AuditOutcome {
  if (run.timedOut) return { reached: false, reason: `npm audit gave no answer within ${TIMEOUT_MS / 1000} s` };
  let json: unknown;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    json = undefined;
  }
  const report = json as Partial<AuditReport> | undefined;
  if (report?.metadata?.vulnerabilities && report.vulnerabilities)
    return { reached: true, report: report as AuditReport };
  return {
    reached: false,
    reason:
      `npm audit could not get a report from the registry's audit endpoint (exit ${run.code}): ` +
      `${failureText(json, run.stderr)}; the production dependencies were not checked`,
  };
}

/** Each high or critical package with the advisories behind it, for a failure message that says what to fix. */
function serious(report: AuditReport): string[] {
  return Object.entries(report.vulnerabilities)
    .filter(([, v]) => v.severity === 'high' || v.severity === 'critical')
    .map(([name, v]) => {
      const via = v.via.map((a) => (typeof a === 'string' ? `via ${a}` : `${a.title ?? '?'} ${a.url ?? ''}`.trim()));
      return `${name} (${v.severity}): ${via.join('; ')}`;
    });
}

async function writeSummary(outcome: AuditOutcome): Promise<void> {
  const summary = outcome.reached
    ? {
        date: new Date().toISOString(),
        reached: true,
        dependencies: outcome.report.metadata.dependencies?.prod ?? null,
        counts: Object.fromEntries(SEVERITIES.map((s) => [s, outcome.report.metadata.vulnerabilities[s] ?? 0])),
        highOrCritical: serious(outcome.report),
      }
    : { date: new Date().toISOString(), reached: false, reason: outcome.reason };
  await mkdir(path.dirname(SUMMARIES.audit), { recursive: true });
  await writeFile(SUMMARIES.audit, `${JSON.stringify(summary, null, 2)}\n`);
}

describe('npm audit of the production dependencies', () => {
  it('reports no high or critical vulnerability', async () => {
    const outcome = outcomeOf(await npmAudit());
    await writeSummary(outcome);
    if (!outcome.reached) expect.fail(outcome.reason);
    const counts = outcome.report.metadata.vulnerabilities;
    console.log(`audit: ${SEVERITIES.map((s) => `${counts[s] ?? 0} ${s}`).join(', ')}`);
    expect(serious(outcome.report)).toEqual([]);
    expect((counts.high ?? 0) + (counts.critical ?? 0)).toBe(0);
  });
});
