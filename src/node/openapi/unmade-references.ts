import type { DiagnosticList } from '../diagnostics';

/** An `apiReference` entry whose pages were not made, and where the problem that stopped them was reported. */
export interface UnmadeReference {
  /** The reference's route: `/api/reference/`. */
  route: string;
  /** The file of the problem (the OpenAPI document, or `_site.yaml` when the document is missing). */
  file: string;
  line: number;
  column: number;
}

/**
 * Links into a reference whose document has an error: its pages were not made, so every link into them
 * would be reported broken, one line each, burying the one problem the writer has to fix. They are left
 * unchecked, and said so once per reference.
 */
export class UncheckedLinks {
  private readonly skipped = new Map<UnmadeReference, number>();

  constructor(private readonly unmade: readonly UnmadeReference[]) {}

  /** Whether a link to `route` leads into an unmade reference; it is then counted, not checked. */
  skips(route: string): boolean {
    const reference = this.unmade.find((entry) => route.startsWith(entry.route));
    if (!reference) return false;
    this.skipped.set(reference, (this.skipped.get(reference) ?? 0) + 1);
    return true;
  }

  /** One line for each unmade reference that links or sidebar entries lead into. */
  report(diagnostics: DiagnosticList): void {
    for (const [{ route, file, line, column }, count] of this.skipped) {
      const links = count === 1 ? '1 link or sidebar entry' : `${count} links and sidebar entries`;
      diagnostics.warn(file, line, column, `${links} into ${route} not checked: its pages are made once this is fixed`);
    }
  }
}
