/**
 * The problems of `npm run dev`'s site as the dev server answers them at `/__dev/problems` and the dev
 * client (src/client/dev/live.ts) lists them over the page: both sides import these types.
 */

/** A problem of the site, with the URL of the page whose file it is in, when it is a page's. */
export interface DevProblem {
  severity: 'error' | 'warning';
  /** Path relative to the content folder, with forward slashes. */
  file: string;
  line: number;
  column: number;
  message: string;
  page?: string;
}

/** The problems a tab shows over a page: the page's own and those of no page, with the count of pages elsewhere with errors. */
export interface PageProblems {
  diagnostics: DevProblem[];
  /** Whether the site written shows them, or the tabs keep the last good one. */
  written: boolean;
  otherPages: number;
}
