/** What bench/build-once.ts (the child) reports to bench/builds.ts (the parent). */

export const RESULT_PREFIX = 'BENCH_RESULT ';
/** Printed just before the measured build starts, so a stopped build's wall time excludes start-up. */
export const STARTED_LINE = 'BENCH_BUILD_STARTED';

export interface BuildMeasurement {
  ok: boolean;
  pages: number;
  /** The first few diagnostics, formatted, when there were any. */
  diagnostics: string[];
  /** How many warnings the build reported, and how many of them are broken links and anchors. */
  warnings?: number;
  brokenLinks?: number;
  wallMs: number;
  /** CPU time of the Node process during the build (process.cpuUsage delta). */
  cpuMs: number;
  /** CPU time of the helper processes the build started (esbuild's service), when /proc tells. */
  helperCpuMs: number | null;
  /** Peak resident memory of the whole child process (process.resourceUsage().maxRSS). */
  maxRssBytes: number;
}

export interface BuildOnceReport {
  /** One build, or with --edit one entry per rebuild after an edit. */
  builds: BuildMeasurement[];
}
