/**
 * What an import did to the tree and what it could not bring over, file by file. It is written into the
 * new content folder as `_import-report.md` (a name the build never makes a page) and summed up on the
 * terminal, so a writer can go through it before the first build.
 */

export type ReportKind = 'changed' | 'lost';

export interface ReportEntry {
  kind: ReportKind;
  /** Path in the source folder (forward slashes), or the configuration file. */
  file: string;
  /** 1-based; 0 when the entry is about the whole file. */
  line: number;
  message: string;
}

export class ImportReport {
  readonly entries: ReportEntry[] = [];

  /** Something was rewritten so the reader still sees it (a constant, a redirect, an inlined component). */
  changed(file: string, line: number, message: string): void {
    this.entries.push({ kind: 'changed', file, line, message });
  }

  /** Something the new site cannot show or do: the writer decides what replaces it. */
  lost(file: string, line: number, message: string): void {
    this.entries.push({ kind: 'lost', file, line, message });
  }

  count(kind: ReportKind): number {
    return this.entries.filter((e) => e.kind === kind).length;
  }

  /** The report as markdown: a summary, then each kind's entries by file. */
  render(source: string, tool: string, pages: number): string {
    const where = (e: ReportEntry) => (e.line > 0 ? `${e.file}:${e.line}` : e.file);
    const section = (kind: ReportKind, heading: string, none: string) => {
      const entries = this.entries
        .filter((e) => e.kind === kind)
        .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
      const lines = entries.map((e) => `- \`${where(e)}\` ${e.message}`);
      return [`## ${heading}`, '', ...(lines.length > 0 ? lines : [none]), ''];
    };
    return [
      '# Import report',
      '',
      `Imported ${pages} pages from the ${tool} site in \`${source}\`: ${this.count('changed')} changes, ` +
        `${this.count('lost')} things not carried over.`,
      '',
      ...section('lost', 'Not carried over', 'Nothing: everything the old site showed has a place here.'),
      ...section('changed', 'Changed', 'Nothing was rewritten.'),
    ].join('\n');
  }
}
