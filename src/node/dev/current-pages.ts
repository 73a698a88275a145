import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { DiagnosticList, type Diagnostic } from '../diagnostics';
import {
  isPageFile,
  makePage,
  makePages,
  type CompletePage,
  type ContentFile,
  type PageTools,
  type ReferencedSite,
  type SiteConfig,
} from '../site-stages';

/** Where the render cache of `npm run dev` is (`makePages`), and where its progress goes. */
export interface AllPagesOptions extends PageTools {
  srcDir: string;
  cacheDir: string;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/**
 * The site's pages as the writer's files are now, in the scan's order (the order the build assembles them
 * in), with each file's problems. All of them are made by the build's page pass (`makePages`) when
 * `npm run dev` starts or the settings change: with the render cache in dev's cache folder, so a second
 * start makes only the files changed since, and on threads for a large site. After that, page by page as
 * files change. A file that could not be made is kept as `undefined`, with its problems.
 */
export class CurrentPages {
  private readonly pages = new Map<string, CompletePage | undefined>();
  private files = new Map<string, ContentFile>();
  private readonly pageDiagnostics = new Map<string, Diagnostic[]>();
  private lastMade: CompletePage[] = [];

  constructor(private readonly contentDir: string) {}

  /** Makes the pages of `files` and adds them to those known (`DevBuilder.preview`). */
  async add(files: ContentFile[], config: SiteConfig, tools: PageTools): Promise<void> {
    for (const file of files) this.files.set(file.relativePath, file);
    await this.make(files, config, tools);
  }

  /** Every page file known, by its path relative to the content folder. */
  get paths(): string[] {
    return [...this.pages.keys()];
  }

  /** The pages the last change made (those with errors left out). */
  made(): CompletePage[] {
    return this.lastMade;
  }

  loaded(): CompletePage[] {
    return [...this.pages.values()].filter((p): p is CompletePage => p !== undefined);
  }

  /** The problems of every page as last made. */
  diagnostics(): Diagnostic[] {
    return [...this.pageDiagnostics.values()].flat();
  }

  /** Whether a path calls for a new scan of the tree: a page that is new or gone, a folder, anything removed. */
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
   * The pages to make again: the changed page files, the pages that use a changed image or miss one that
   * changed (it may have just been added), and the files that could not be made (an error there may have
   * been fixed). A page whose problems are only warnings is left as it is: on an imported tree that is
   * thousands of pages, which every save would make again.
   */
  affectedBy(changed: string[]): string[] {
    const files = new Set(changed.map((file) => path.join(path.resolve(this.contentDir), file)));
    const affected = new Set(changed.filter(isPageFile));
    for (const [file, page] of this.pages) {
      if (!page) affected.add(file);
      else if (page.analysis.assets.some((asset) => files.has(asset.absolutePath))) affected.add(file);
      else if (page.analysis.uncopied.some((missing) => files.has(missing))) affected.add(file);
    }
    return [...affected];
  }

  /** Every page of the site made, as the build makes them. */
  async makeAll(scanned: ReferencedSite, options: AllPagesOptions): Promise<void> {
    const diagnostics = new DiagnosticList(options.strict);
    const made = await makePages(scanned, { ...options, diagnostics });
    await made.cache.save(made.made, made.problems);
    const byFile = new Map(made.pages.map((page) => [page.file.relativePath, page]));
    this.pages.clear();
    this.pageDiagnostics.clear();
    for (const problem of diagnostics.items) {
      const list = this.pageDiagnostics.get(problem.file);
      if (list) list.push(problem);
      else this.pageDiagnostics.set(problem.file, [problem]);
    }
    for (const file of scanned.files) this.pages.set(file.relativePath, byFile.get(file.relativePath));
    this.files = new Map(scanned.files.map((f) => [f.relativePath, f]));
    this.lastMade = made.pages;
  }

  /** Takes the files of a new scan: makes new files and the `remake` ones again, forgets removed ones. */
  async rescan(remake: string[], scanned: ReferencedSite, tools: PageTools): Promise<void> {
    const files = scanned.files;
    const present = new Set(files.map((f) => f.relativePath));
    for (const known of [...this.pages.keys()]) {
      if (!present.has(known)) {
        this.pages.delete(known);
        this.pageDiagnostics.delete(known);
      }
    }
    const again = new Set(remake);
    const make = files.filter((f) => again.has(f.relativePath) || !this.pages.has(f.relativePath));
    this.files = new Map(files.map((f) => [f.relativePath, f]));
    await this.make(make, scanned.config, tools);
    const sorted = files.map((f) => [f.relativePath, this.pages.get(f.relativePath)] as const);
    this.pages.clear();
    for (const [p, page] of sorted) this.pages.set(p, page);
  }

  /** Makes known pages again, without a new scan (their files are still there). */
  async remake(files: string[], config: SiteConfig, tools: PageTools): Promise<void> {
    await this.make(
      files.flatMap((file) => this.files.get(file) ?? []),
      config,
      tools,
    );
  }

  private async make(files: ContentFile[], config: SiteConfig, tools: PageTools): Promise<void> {
    const made = await Promise.all(files.map((file) => this.makeOne(file, config, tools)));
    for (const [i, file] of files.entries()) this.pages.set(file.relativePath, made[i]);
    this.lastMade = made.filter((page): page is CompletePage => page !== undefined);
  }

  private async makeOne(file: ContentFile, config: SiteConfig, tools: PageTools): Promise<CompletePage | undefined> {
    const made = await makePage(file, config, tools).catch((error: unknown) => {
      // A file removed between the scan and the read: the next event scans again.
      const diagnostics = new DiagnosticList();
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : (error as Error);
      diagnostics.error(file.relativePath, 1, 1, `could not read the file: ${cause.message}`);
      return { page: undefined, problems: diagnostics.items };
    });
    this.pageDiagnostics.set(file.relativePath, made.problems);
    return made.page;
  }
}
