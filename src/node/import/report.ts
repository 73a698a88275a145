/**
 * What an import did to the tree and what it could not bring over, file by file. It is written into the
 * new content folder as `_import-report.md` (a name the build never makes a page) and summed up on the
 * terminal, so a writer can go through it before the first build.
 */
import { byPlace } from '../diagnostics';

export type ReportKind = 'changed' | 'lost' | 'broken';

export interface ReportEntry {
  kind: ReportKind;
  /**
   * Path in the source folder (forward slashes), or the configuration file; for a broken link, the page
   * in the new content folder, as the build names it.
   */
  file: string;
  /** 1-based; 0 when the entry is about the whole file. */
  line: number;
  /** 1-based, for a broken link; 0 otherwise. */
  column: number;
  message: string;
}

export class ImportReport {
  readonly entries: ReportEntry[] = [];

  /** Something was rewritten so the reader still sees it (a constant, a redirect, an inlined component). */
  changed(file: string, line: number, message: string): void {
    this.entries.push({ kind: 'changed', file, line, column: 0, message });
  }

  /** Something the new site cannot show or do: the writer decides what replaces it. */
  lost(file: string, line: number, message: string): void {
    this.entries.push({ kind: 'lost', file, line, column: 0, message });
  }

  /**
   * An error a strict build of the imported tree stops on, as the build reports it: mostly a link that led
   * nowhere in the old site either.
   */
  broken(file: string, line: number, column: number, message: string): void {
    this.entries.push({ kind: 'broken', file, line, column, message });
  }

  count(kind: ReportKind): number {
    return this.entries.filter((e) => e.kind === kind).length;
  }

  /** The report as markdown: a summary, then each kind's entries by file. */
  render(source: string, tool: string, pages: number): string {
    const where = (e: ReportEntry) =>
      e.line > 0 ? `${e.file}:${e.line}${e.column > 0 ? `:${e.column}` : ''}` : e.file;
    const section = (kind: ReportKind, heading: string, none: string) => {
      const entries = this.entries.filter((e) => e.kind === kind).sort(byPlace);
      const lines = entries.map((e) => `- \`${where(e)}\` ${e.message}`);
      return [`## ${heading}`, '', ...(lines.length > 0 ? lines : [none]), ''];
    };
    return [
      '# Import report',
      '',
      `Imported ${pages} pages from the ${tool} site in \`${source}\`: ${this.count('changed')} changes, ` +
        `${this.count('lost')} things not carried over, ${this.count('broken')} problems already in the old pages.`,
      '',
      ...section('lost', 'Not carried over', 'Nothing: everything the old site showed has a place here.'),
      ...(this.count('broken') > 0
        ? [
            '## Already broken in the old site',
            '',
            `A strict \`npm run build\` of this folder stops on these ${this.count('broken')} problems, which the old ` +
              'pages had already (links to sections since removed, relative links that never resolved); the places ' +
              'are in this folder. Fix them, or build with `--no-strict` meanwhile.',
            '',
            ...section('broken', '', '').slice(2),
          ]
        : []),
      ...section('changed', 'Changed', 'Nothing was rewritten.'),
    ].join('\n');
  }
}
