import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { analyzeFile, type PageMaking } from '../analyze/analyze-file';
import type { CompletePage } from '../analyze/page-record';
import { isPageFile, scanContent, type ContentFile } from '../scan/scan';
import { DiagnosticList, type Diagnostic } from '../diagnostics';

/** How pages are made: the site's settings and the highlighter (each page gets its own diagnostics). */
export type PageContext = PageMaking;

/**
 * The content tree's pages, rendered and kept between edits, in the order of the scan (the order the
 * production build assembles pages in). A file that could not be read is kept as `undefined`, with its
 * problem.
 */
export class PageCache {
  private readonly pages = new Map<string, CompletePage | undefined>();
  private files = new Map<string, ContentFile>();
  private readonly pageDiagnostics = new Map<string, Diagnostic[]>();
  private scanDiagnostics: Diagnostic[] = [];
  private lastRendered: CompletePage[] = [];
  /** Pages made from files outside the tree (the API reference's, openapi/api-reference.ts), after the scan's. */
  generated: ContentFile[] = [];

  constructor(private readonly contentDir: string) {}

  /** Every page file known, by its path relative to the content folder. */
  get paths(): string[] {
    return [...this.pages.keys()];
  }

  /** The pages the last rescan or reload rendered (those with errors left out). */
  rendered(): CompletePage[] {
    return this.lastRendered;
  }

  loaded(): CompletePage[] {
    return [...this.pages.values()].filter((p): p is CompletePage => p !== undefined);
  }

  /** The problems of the last scan and of every page as last rendered. */
  diagnostics(): Diagnostic[] {
    return [...this.scanDiagnostics, ...[...this.pageDiagnostics.values()].flat()];
  }

  clear(): void {
    this.pages.clear();
    this.pageDiagnostics.clear();
  }

  /** Whether a path calls for a rescan of the tree: a page that is new or gone, a folder, anything removed. */
  needsScan(file: string): boolean {
    const full = path.join(this.contentDir, file);
    if (isPageFile(file)) return !this.pages.has(file) || !existsSync(full);
    try {
      return !statSync(full).isFile();
    } catch {
      return true;
    }
  }

  /**
   * The pages to render again: the changed page files, the pages that use a changed image, and the pages
   * that had problems (a missing image or a bad file may have been fixed by this change).
   */
  affectedBy(changed: string[]): string[] {
    const files = new Set(changed.map((file) => path.join(path.resolve(this.contentDir), file)));
    const affected = new Set(changed.filter(isPageFile));
    for (const [file, page] of this.pages) {
      if ((this.pageDiagnostics.get(file) ?? []).length > 0 || !page) affected.add(file);
      else if (page.analysis.assets.some((asset) => files.has(asset.absolutePath))) affected.add(file);
    }
    return [...affected];
  }

  /** Rescans the tree; loads new files and the `reload` ones again, forgets removed ones. */
  async rescan(reload: string[], context: PageContext): Promise<void> {
    const scan = new DiagnosticList();
    const files = [...(await scanContent(this.contentDir, scan)), ...this.generated];
    this.scanDiagnostics = scan.items;
    const present = new Set(files.map((f) => f.relativePath));
    for (const known of [...this.pages.keys()]) {
      if (!present.has(known)) {
        this.pages.delete(known);
        this.pageDiagnostics.delete(known);
      }
    }
    const again = new Set(reload);
    const load = files.filter((f) => again.has(f.relativePath) || !this.pages.has(f.relativePath));
    this.files = new Map(files.map((f) => [f.relativePath, f]));
    await this.load(load, context);
    const sorted = files.map((f) => [f.relativePath, this.pages.get(f.relativePath)] as const);
    this.pages.clear();
    for (const [p, page] of sorted) this.pages.set(p, page);
  }

  /** Renders known pages again, without a rescan (their files are still there). */
  async reload(files: string[], context: PageContext): Promise<void> {
    await this.load(
      files.flatMap((file) => this.files.get(file) ?? []),
      context,
    );
  }

  private async load(files: ContentFile[], context: PageContext): Promise<void> {
    const loaded = await Promise.all(files.map((file) => this.loadOne(file, context)));
    for (const [i, file] of files.entries()) this.pages.set(file.relativePath, loaded[i]);
    this.lastRendered = loaded.filter((page): page is CompletePage => page !== undefined);
  }

  private async loadOne(file: ContentFile, context: PageContext): Promise<CompletePage | undefined> {
    const made = await analyzeFile(file, context, context.strict).catch((error: unknown) => {
      // A file removed between the scan and the read: the next event rescans.
      const diagnostics = new DiagnosticList();
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : (error as Error);
      diagnostics.error(file.relativePath, 1, 1, `could not read the file: ${cause.message}`);
      return { page: undefined, problems: diagnostics.items };
    });
    this.pageDiagnostics.set(file.relativePath, made.problems);
    return made.page;
  }
}
