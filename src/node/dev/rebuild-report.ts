import { routeFromRelativePath } from '../../shared/paths';
import { formatDiagnostic } from '../diagnostics';
import { isPageFile } from '../site-stages';
import type { DevResult } from './dev-result';
import type { DevServer } from './server';

/** What `npm run dev` says of a step of its builder: in the terminal, and to the open tabs. */
export interface RebuildReport {
  /** Prints the step's problems not printed before, and a line for the step itself. */
  report(result: DevResult, what: string): void;
  /** Tells the tabs the site's problems after a step: none (the overlay goes) when it has no error. */
  sendProblems(result: DevResult): void;
  /** Tells the tabs the site `result` wrote, and what a tab reads of it to show a page written again. */
  broadcastContent(result: DevResult): void;
  /** Tells the terminal and the tabs a page made ahead of the first page pass, and its problems. */
  showEarly(result: DevResult, what: string): void;
}

/** The URL of the page a problem's file makes, for the tab that shows it; none for `_site.yaml` and the like. */
const pageOf = (file: string, base: string): { page?: string } =>
  isPageFile(file) ? { page: base + routeFromRelativePath(file).slice(1) } : {};

export function rebuildReport(
  dev: DevServer,
  base: string,
  log: (line: string, error?: boolean) => void,
): RebuildReport {
  // The problems of the last report: a rebuild prints only those it did not, or an imported tree's
  // thousands of old broken links would scroll past at every save, the save's own problem among them.
  let reported = new Set<string>();
  function report(result: DevResult, what: string): void {
    const lines = result.diagnostics.map((d) => ({ text: formatDiagnostic(d), error: d.severity === 'error' }));
    for (const { text, error } of lines) if (!reported.has(text)) log(text, error);
    reported = new Set(lines.map(({ text }) => text));
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    const s = errors === 1 ? '' : 's';
    if (result.ok) log(`✓ ${what} in ${Math.round(result.ms)} ms`);
    else if (result.update) log(`✗ ${what} with ${errors} error${s}: the pages show them in the browser`, true);
    else log(`✗ ${errors} error${s}: the browser keeps the last good site`, true);
  }
  function sendProblems(result: DevResult): void {
    const diagnostics = result.ok ? [] : result.diagnostics.map((d) => ({ ...d, ...pageOf(d.file, base) }));
    dev.broadcast({ type: 'problems', diagnostics, written: result.update !== undefined });
  }
  const broadcastContent = ({ update }: DevResult) => update && dev.broadcast({ type: 'content', update });
  return {
    report,
    sendProblems,
    broadcastContent,
    showEarly(result, what) {
      report(result, `made ${what} ahead of the rest`);
      if (result.written.length > 0) broadcastContent(result);
      sendProblems(result);
    },
  };
}
