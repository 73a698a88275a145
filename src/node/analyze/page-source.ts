import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { routeFromRelativePath } from '../../shared/paths';
import { contentHash, fileDigest } from '../content-hash';
import { excerpt } from '../excerpt';
import { positionAt, type DiagnosticList } from '../diagnostics';
import type { PageFrontmatter } from '../../shared/types';
import { emptyAnalysis, type PageAnalysis } from './markdown/analyze';
import type { BlockHighlighter } from './markdown/code-blocks';
import { fenceLanguages } from './markdown/code-info';
import { mayHoldDiagrams, prepareDiagrams } from './markdown/diagram';
import { resolveLink } from './markdown/links';
import { renderMarkdown } from './markdown/pipeline';
import { clientRedirect, type ClientRedirect } from './client-redirect';
import { splitFrontmatter } from './frontmatter';
import { pageSearch } from './page-search';
import { mathClasses } from './markdown/math-styles';
import { codeColours, type CompletePage, type SourceStamp } from './page-record';
import type { ContentFile } from '../scan/scan';
import { heldText, type TextSink } from './text-store';
import { heldSearch, type SearchSink } from './stored-search';

/** The site-wide settings a page is rendered with: plain data, the same on every render thread. */
export interface PageSettings {
  base: string;
  constants: Readonly<Record<string, string>>;
  strict: boolean;
  /** Domains whose iframes pages keep (`embeds` of `_site.yaml`); the default list when not given. */
  embeds?: readonly string[];
  /** Whether code blocks number their lines unless their fence says otherwise (`lineNumbers` of `_site.yaml`). */
  lineNumbers?: boolean;
}

export interface SiteContext extends PageSettings {
  /** Highlights each code block as the page pass meets it, once `prepare` has loaded the page's languages. */
  highlighter: BlockHighlighter & { prepare(languages: readonly string[]): Promise<void> };
  /** Where the page's fragment and markdown go until its files are written. */
  texts: TextSink;
  /** Where its search terms go. */
  search: SearchSink;
  diagnostics: DiagnosticList;
}

/** Pages larger than this are refused: a writer's file of this size is a mistake, not a page. */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/**
 * Reads one markdown file into a finished page: front matter, markdown, its code highlighted as it goes,
 * the fragment and its hash, search terms and the markdown twin. Problems go to the diagnostics, never
 * thrown.
 */
export async function loadPage(file: ContentFile, site: SiteContext): Promise<CompletePage | undefined> {
  const { diagnostics } = site;
  const { size, mtimeMs } = await stat(file.absolutePath);
  if (size > MAX_PAGE_BYTES) {
    diagnostics.error(file.relativePath, 1, 1, `file is ${(size / 1048576).toFixed(1)} MB; pages are limited to 8 MB`);
    return undefined;
  }
  const bytes = await readFile(file.absolutePath);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    const { line, column } = firstInvalidUtf8(bytes);
    diagnostics.error(file.relativePath, line, column, 'file is not valid UTF-8: save it with UTF-8 encoding');
    return undefined;
  }
  // The time before the read and the digest of what was read: a file saved meanwhile looks changed.
  const source: SourceStamp = { size: bytes.length, mtimeMs, digest: fileDigest(bytes) };
  const route = routeFromRelativePath(file.relativePath);
  const { frontmatter, body, bodyLineOffset, neighbours } = splitFrontmatter(text, file.relativePath, diagnostics);
  const redirect = clientRedirect(body);
  if (redirect) {
    const at = positionAt(body, redirect.offset);
    const page = redirectPage(file, route, frontmatter, redirect, at, bodyLineOffset, diagnostics);
    return page && { ...page, source };
  }
  await Promise.all([
    site.highlighter.prepare(fenceLanguages(body)),
    mayHoldDiagrams(body) ? prepareDiagrams() : undefined,
  ]);
  const rendered = renderMarkdown(body, {
    file: file.relativePath,
    absoluteDir: path.dirname(file.absolutePath),
    contentDir: contentDirOf(file),
    route,
    base: site.base,
    lineOffset: bodyLineOffset,
    constants: site.constants,
    highlighter: site.highlighter,
    strict: site.strict,
    ...(site.embeds ? { embeds: site.embeds } : {}),
    ...(site.lineNumbers ? { lineNumbers: true } : {}),
    diagnostics,
  });
  if (!rendered) return undefined;
  const { html, analysis } = rendered;
  let title = frontmatter.title ?? analysis.h1;
  if (!title) {
    if (site.strict) {
      diagnostics.error(file.relativePath, 1, 1, 'page has no title: add "title:" to the frontmatter or a "# Heading"');
      return undefined;
    }
    title = titleFromPath(file.relativePath, path.basename(contentDirOf(file)));
    diagnostics.warn(file.relativePath, 1, 1, `page has no title: "${title}", from its file name, is used`);
  }
  const description = frontmatter.description ?? excerpt(analysis.firstParagraph, 200);
  // The sections become search terms, and the twin edits the markdown twin, here: the record keeps neither.
  const { sections, twinEdits: _twinEdits, ...pageAnalysis } = analysis;
  // What the record keeps of the file, copied: a string cut from the file's text keeps that whole text
  // alive in V8, and a large site would hold every file it read.
  const kept = structuredClone({ frontmatter, title, description, analysis: pageAnalysis, neighbours });
  return {
    file,
    source,
    route,
    ...kept,
    html: site.texts.put(html),
    hash: contentHash(html),
    codeColours: codeColours(html),
    mathClasses: mathClasses(html),
    markdown: site.texts.put(pageMarkdown(title, body, analysis)),
    search: site.search.put(pageSearch(title, route, description, sections)),
  };
}

/** A file whose body only redirects: a record the site turns into a redirect, or nothing when it leads off the site. */
function redirectPage(
  file: ContentFile,
  route: string,
  frontmatter: PageFrontmatter,
  redirect: ClientRedirect,
  at: { line: number; column: number },
  lineOffset: number,
  diagnostics: DiagnosticList,
): Omit<CompletePage, 'source'> | undefined {
  const line = at.line + lineOffset;
  const resolved = resolveLink(redirect.target, route, file.relativePath);
  if (resolved.kind !== 'internal' && resolved.kind !== 'anchor') {
    diagnostics.warn(
      file.relativePath,
      line,
      at.column,
      `page only redirects to "${redirect.target}", which is not a page of this site: it was left out`,
    );
    return undefined;
  }
  const targetRoute = resolved.kind === 'internal' ? resolved.route : route;
  const target = targetRoute + (resolved.hash ? `#${encodeURIComponent(resolved.hash)}` : '');
  diagnostics.warn(
    file.relativePath,
    line,
    at.column,
    `page only redirects to "${redirect.target}": it becomes a redirect from ${route} to ${target}, not a page`,
  );
  const { sections, twinEdits: _twinEdits, ...analysis } = emptyAnalysis();
  return {
    file,
    route,
    frontmatter,
    title: route,
    description: '',
    html: heldText(''),
    hash: contentHash(''),
    codeColours: [],
    mathClasses: [],
    markdown: heldText(''),
    analysis,
    search: heldSearch.put(pageSearch(route, route, '', sections)),
    neighbours: [],
    redirect: { target, line, column: at.column },
  };
}

/**
 * A title for a page that has none, from its file or folder name: `cron/README.md` → "Cron",
 * `working-with-files.md` → "Working with files"; the home page takes the content folder's name.
 */
export function titleFromPath(relativePath: string, contentFolderName: string): string {
  const segments = routeFromRelativePath(relativePath).split('/').filter(Boolean);
  const name = (segments[segments.length - 1] ?? contentFolderName).replace(/[-_\s]+/g, ' ').trim();
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : 'Home';
}

/**
 * The body with every constant replaced by its value (code keeps `{{ NAME }}` as written, as the HTML does)
 * and every link and image to this site by its URL with the base, as the HTML has them: the twin is served
 * at `/docs/guide.md` and read in `llms-full.txt`, where `/errors/` or `./errors.md` would lead elsewhere.
 * Under a `# Title` line unless the body starts with its own.
 */
function pageMarkdown(title: string, body: string, analysis: PageAnalysis): string {
  // The offsets are into the body as the markdown pass read it, with its line endings made \n.
  const source = body.replace(/\r\n?/g, '\n');
  let text = '';
  let at = 0;
  const edits = [...analysis.twinEdits].sort((a, b) => a.offset - b.offset);
  for (const edit of edits) {
    if (edit.offset < at) continue;
    text += source.slice(at, edit.offset) + edit.value;
    at = edit.offset + edit.length;
  }
  // `[[toc]]` lists the headings that follow; in plain markdown it would only be noise.
  text = (text + source.slice(at)).replace(/^\[\[toc\]\][ \t]*\n+/gim, '').trim();
  return `${analysis.h1 !== undefined && /^#\s/.test(text) ? '' : `# ${title}\n\n`}${text}\n`;
}

/** The content folder a scanned file sits in: its folder, one level up per folder in its relative path. */
function contentDirOf(file: ContentFile): string {
  const depth = file.relativePath.split('/').length - 1;
  return path.resolve(path.dirname(file.absolutePath), ...Array<string>(depth).fill('..'));
}

function firstInvalidUtf8(bytes: Uint8Array): { line: number; column: number } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let low = 0;
  let high = bytes.length;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    try {
      decoder.decode(bytes.subarray(0, mid));
      low = mid;
    } catch {
      high = mid;
    }
  }
  const prefix = new TextDecoder('utf-8').decode(bytes.subarray(0, low));
  return positionAt(prefix, prefix.length);
}
