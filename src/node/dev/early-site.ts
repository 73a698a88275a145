import { routeFromRelativePath } from '../../shared/paths';
import { DiagnosticList, type Diagnostic } from '../diagnostics';
import {
  buildSearchFiles,
  siteCss,
  siteOf,
  type PageRecord,
  type PageTools,
  type ReferencedSite,
  type SearchFiles,
  type Site,
} from '../site-stages';
import { CurrentPages } from './current-pages';

/** A site made of the pages made ahead of the first page pass, with what its output needs. */
export interface EarlyOutput {
  site: Site<PageRecord>;
  search: SearchFiles;
  css: { name: string; css: Uint8Array };
  /** The problems of the pages themselves: their links into pages not made yet are not checked. */
  diagnostics: Diagnostic[];
}

/**
 * The pages a tab asks for, or the writer saves, while `npm run dev`'s first page pass makes the whole
 * site: each made at once, as the pass would make it, and put together with the others made so as a site
 * of their own, so that the first answer does not wait for thousands of pages. Its sidebar and links lead
 * only to the pages made so far; the whole site replaces it once the pass is done.
 */
export class EarlySite {
  private readonly pages: CurrentPages;

  constructor(contentDir: string) {
    this.pages = new CurrentPages(contentDir);
  }

  /** The file of the page at `route` when it is still to be made; undefined when made or not in the site. */
  fileFor(route: string, scanned: ReferencedSite): string | undefined {
    const file = scanned.files.find((f) => routeFromRelativePath(f.relativePath) === route)?.relativePath;
    return file && !this.pages.paths.includes(file) ? file : undefined;
  }

  /** Makes the pages of `files` (paths in the content folder) again, and the site of all made so far. */
  async make(files: string[], scanned: ReferencedSite, tools: PageTools, appCss: string): Promise<EarlyOutput> {
    const wanted = new Set(files);
    await this.pages.add(
      scanned.files.filter((file) => wanted.has(file.relativePath)),
      scanned.config,
      tools,
    );
    const pages = this.pages.loaded();
    const site = siteOf(pages, scanned, false, new DiagnosticList(false));
    return {
      site,
      search: await buildSearchFiles(site.pages),
      css: await siteCss(appCss, pages),
      diagnostics: this.pages.diagnostics(),
    };
  }
}
