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

/** Collects every problem of a build; strict mode decides later which ones fail it. */
export class DiagnosticList {
  readonly items: Diagnostic[] = [];

  error(file: string, line: number, column: number, message: string): void {
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
    return [...this.items].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  }
}

/** 1-based line and column of a character offset in a text. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
