import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { contentHash } from '../content-hash';
import { DiagnosticList, type Diagnostic } from '../diagnostics';
import { HeldUpdates } from '../output/publish';
import { searchOf, type SearchLending } from '../output/published-search';
import type { SearchFiles } from '../site/search-files';
import { shardKindOf } from '../../shared/search-layout';
import { isPageFile, type ContentFile } from '../scan/scan';
import { readSiteConfig, siteConfigSchema, type SiteConfig } from '../scan/site-config';
import { versionConfig, withVersionLinks } from './version-config';
import type { VersionsAround } from '../site/version-links';
import { builtVersions, type BuiltVersion } from './version-entries';
import { aroundKey, versionsAround } from './versions-around';
import { codeDigest, folderFiles, markBuilt, unchangedVersion, versionMark } from './version-mark';
import { pagesAhead, type VersionFolder } from './pages-ahead';

/** What the versions layer asks of one site's build, besides its folders. */
export interface SiteLayer {
  /** The settings the site is built with, made from those of its own `_site.yaml`. */
  settings?: (own: SiteConfig) => SiteConfig;
  /**
   * Where the caches of pages and of highlighted code are: one for every version, as most pages are the
   * same in each (and are made once, analyze/render-cache.ts).
   */
  sharedCacheDir?: string;
  /** Folders of the site's outputs that the versions nested in it own. */
  nested?: readonly string[];
  /** Where the site's written outputs wait to be committed with the other versions'. */
  held?: HeldUpdates;
  /** The redirect lines of the versions nested in the site, for its own redirect tables. */
  nestedRedirects?: readonly string[];
  /** The other versions built with the site, which its link check names a link into (site/version-links.ts). */
  versions?: VersionsAround;
  /** The search data of the version built before it, and where to tell of its own. */
  search?: SearchLending;
  /** Page files of the versions built after it, made in its page pass for their builds (pages-ahead.ts). */
  ahead?: readonly ContentFile[];
}

/** The folders and strictness of one site's build. */
export interface SiteFolders {
  contentDir: string;
  manifestDir: string;
  outDir: string;
  cacheDir: string;
  strict: boolean;
}

export interface SiteBuildResult {
  ok: boolean;
  pages: number;
  rendered: number;
  diagnostics: Diagnostic[];
  seconds: number;
}

/** The one-site build (src/node/build.ts): scan → analyze → site → output, with a layer's asks. */
export type BuildSite = (folders: SiteFolders, layer: SiteLayer) => Promise<SiteBuildResult>;

/**
 * Builds the site and every version `_site.yaml` builds with it, each a site of its own made by the same
 * build (`buildSite`) at its route under the base, with its own pages, links, sidebar, search data and
 * caches. They are built one after the other, so that only one version's texts are held at a time, and
 * published together once none has an error: all of them, or nothing. The current version is built last:
 * its redirect tables hold the others'. A site without built versions is built as it always was.
 */
export async function buildWithVersions(
  { srcDir, ...folders }: SiteFolders & { srcDir: string },
  buildSite: BuildSite,
  /** Only the older versions, published at their routes in the outputs: what `npm run dev` serves beside its own. */
  olderOnly = false,
): Promise<SiteBuildResult> {
  const started = performance.now();
  // Read here only to find the versions: the site's build reads it again and reports its problems.
  const site = await readSiteConfig(folders.contentDir, new DiagnosticList());
  const hasBuilt = site.valid && site.config.versions.some((version) => version.route !== undefined);
  if (!hasBuilt)
    return olderOnly ? { ok: true, pages: 0, rendered: 0, diagnostics: [], seconds: 0 } : buildSite(folders, {});
  const diagnostics = new DiagnosticList(folders.strict);
  const gitFolders = path.join(folders.cacheDir, 'versions', 'git');
  // The current site's files by name: its pages are checked against the versions' routes, and linked to.
  const currentFiles = folderFiles(folders.contentDir, true);
  const currentPages = currentFiles.map((file) => file.relative).filter(isPageFile);
  const { config, configText } = site;
  const versions = await builtVersions(folders.contentDir, config, configText, diagnostics, gitFolders, currentPages);
  const results: SiteBuildResult[] = [];
  const outcome = (ok: boolean): SiteBuildResult => ({
    ok,
    pages: results.reduce((sum, result) => sum + result.pages, 0),
    rendered: results.reduce((sum, result) => sum + result.rendered, 0),
    diagnostics: [...diagnostics.items, ...results.flatMap((result) => result.diagnostics)],
    seconds: (performance.now() - started) / 1000,
  });
  if (!versions) return outcome(false);
  const held = new HeldUpdates();
  const shared = { held, sharedCacheDir: folders.cacheDir };
  try {
    const code = codeDigest(srcDir);
    const built: { at: SiteFolders; madeFrom: string; result: SiteBuildResult }[] = [];
    const nestedRedirects: string[] = [];
    const filesOf = new Map(versions.map((version) => [version, folderFiles(version.contentDir)]));
    const currentText = site.config.versions.find((version) => version.current)?.text ?? 'the current version';
    // Each version is lent the search data of the one built before it, and the current version that of the
    // first, listed next to it.
    const searches: { first?: SearchFiles; last?: SearchFiles } = {};
    const lending = (lent: SearchFiles | undefined): SearchLending => ({
      lent: () => (lent ? searchOf(lent) : undefined),
      made: (files) => {
        // Only the entry and its term files are read when lent: the rest is let go.
        const terms = {
          entry: files.entry,
          shards: files.shards.filter((shard) => shardKindOf(shard.name) === 'terms'),
        };
        searches.first ??= terms;
        searches.last = terms;
      },
    });
    const around = versionsAround(site.config, [
      { text: currentText, route: '/', files: currentFiles },
      ...versions.map((version) => ({ ...version, files: filesOf.get(version) ?? [] })),
    ]);
    // The first version built makes, beside its own pages, the pages the versions after it changed: its
    // pass has the machine's cores, which theirs, a few pages each, would not.
    const aheadOf = (index: number): Promise<ContentFile[]> => {
      const own = versions[index] as BuiltVersion;
      const later: VersionFolder[] = versions
        .slice(index + 1)
        .map((version) => ({ contentDir: version.contentDir, files: filesOf.get(version) ?? [] }));
      const current = { contentDir: folders.contentDir, files: folderFiles(folders.contentDir), config: site.config };
      if (!olderOnly) later.push(current);
      return pagesAhead({ contentDir: own.contentDir, files: filesOf.get(own) ?? [] }, later);
    };
    // The versions before the site around them: its redirect table is every version's too, as a host
    // (nginx, Netlify) reads the top one only, and they are held, so committed, before it.
    for (const [index, version] of versions.entries()) {
      const at = versionFolders(folders, version);
      const settings = (own: SiteConfig) => versionConfig(own, site.config, version);
      const others = around(version.route);
      // What it is told of the others (their pages) says what its links into them are called.
      const madeFrom = versionMark(at, [settings(GIVEN_ONLY), aroundKey(others)], code, filesOf.get(version) ?? []);
      // A version nobody touched is kept as it is: its documents, fragments and search data, unread.
      const kept = await unchangedVersion(at, madeFrom);
      // The first version built: none before it was.
      const ahead = kept || built.length > 0 ? undefined : await aheadOf(index);
      const result = kept
        ? { ok: true, rendered: 0, seconds: 0, ...kept }
        : await buildSite(at, { ...shared, settings, versions: others, search: lending(searches.last), ahead });
      if (!kept) built.push({ at, madeFrom, result });
      results.push({
        ...result,
        diagnostics: result.diagnostics.map((d) => ({ ...d, file: `${version.label}/${d.file}` })),
      });
      if (!result.ok) return outcome(false);
      nestedRedirects.push(...(await redirectLines(held, at)));
    }
    if (olderOnly) return await published(held, built, outcome);
    const nested = versions.map((version) => version.route.slice(1));
    const current = await buildSite(folders, {
      ...shared,
      settings: withVersionLinks,
      nested,
      nestedRedirects,
      versions: around('/'),
      search: lending(searches.first),
    });
    // The current version's problems first, as a site without versions reports them.
    results.unshift(current);
    if (!current.ok) return outcome(false);
    return await published(held, built, outcome);
  } finally {
    // Nothing once committed; otherwise every version's written files go, and the outputs are as they were.
    await held.rollback();
  }
}

/** Commits every held output, then notes what each version built was made from. */
async function published(
  held: HeldUpdates,
  built: readonly { at: SiteFolders; madeFrom: string; result: SiteBuildResult }[],
  outcome: (ok: boolean) => SiteBuildResult,
): Promise<SiteBuildResult> {
  await held.commit();
  for (const { at, madeFrom, result } of built) await markBuilt(at, madeFrom, result);
  return outcome(true);
}

/** The lines of a version's redirect table (`_redirects`) as its build wrote or kept it. */
async function redirectLines(held: HeldUpdates, at: SiteFolders): Promise<string[]> {
  const text = await readFile(held.fileOf(path.join(path.resolve(at.outDir), '_redirects')), 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** A site's settings with nothing of its own: a version's, filled in, are what the current site gives it. */
const GIVEN_ONLY = siteConfigSchema.parse({ title: '-' });

/** A version's folders: its outputs at its route inside the site's; its own cache folder holds its mark and API pages. */
function versionFolders(folders: SiteFolders, version: BuiltVersion): SiteFolders {
  return {
    contentDir: version.contentDir,
    manifestDir: path.join(folders.manifestDir, version.route),
    outDir: path.join(folders.outDir, version.route),
    cacheDir: path.join(folders.cacheDir, 'versions', contentHash(version.contentDir)),
    strict: folders.strict && version.strict,
  };
}
