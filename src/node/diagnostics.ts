/** Problems found in the content, reported as `file:line:col message` relative to the content folder. */

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Path relative to the content folder, with forward slashes. */
  file: string;
  line: number;
  column: number;
  message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column} ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`;
}

/**
 * Collects every problem of a build; strict mode decides later which ones fail it. A list made for a
 * `--no-strict` build (`strict` false) records every content problem as a warning: such a build never
 * stops on content, only on a fault of its own (thrown, never a diagnostic) or an unwritable output.
 */
export class DiagnosticList {
  readonly items: Diagnostic[] = [];

  /** `strict`: whether content problems are errors (see above); a page thread's lists copy it. */
  constructor(readonly strict = true) {}

  error(file: string, line: number, column: number, message: string): void {
    this.items.push({ severity: this.strict ? 'error' : 'warning', file, line, column, message });
  }

  /**
   * A problem no build goes past, strict or not: the site's own settings (`_site.yaml`), which every page
   * is rendered with; a site built on the defaults instead would deploy under the wrong base.
   */
  fatal(file: string, line: number, column: number, message: string): void {
    this.items.push({ severity: 'error', file, line, column, message });
  }

  warn(file: string, line: number, column: number, message: string): void {
    this.items.push({ severity: 'warning', file, line, column, message });
  }

  /** A content problem: an error in strict mode, a warning otherwise. */
  problem(strict: boolean, file: string, line: number, column: number, message: string): void {
    (strict ? this.error : this.warn).call(this, file, line, column, message);
  }

  get errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'error');
  }

  get warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'warning');
  }

  sorted(): Diagnostic[] {
    return [...this.items].sort(byPlace);
  }
}

/** 1-based line and column of a character offset in a text. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  return lineLocator(text)(offset);
}

/**
 * Line and column (1-based) of any offset in one text, by binary search over its line starts: a page with
 * thousands of links or headings stays linear instead of rescanning the text for each one.
 */
export function lineLocator(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    const at = Math.max(0, Math.min(offset, text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - (starts[low] ?? 0) + 1 };
  };
}

/**
 * Names in the order `localeCompare` gives them, by one collator: `localeCompare` sets one up at every
 * comparison, which sorting the thousands of routes or problems of a large site at each save pays for.
 */
export const compareNames = new Intl.Collator().compare;

/** Problems (or any entries with a place) by file, line and column. */
export const byPlace = (a: Place, b: Place): number =>
  compareNames(a.file, b.file) || a.line - b.line || a.column - b.column;

interface Place {
  file: string;
  line: number;
  column: number;
}
