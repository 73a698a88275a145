import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isNode, parseDocument } from 'yaml';
import { routeFromRelativePath } from '../../shared/paths';
import { DiagnosticList, positionAt } from '../diagnostics';
import { isInside } from '../scan/scan';
import { SITE_CONFIG_FILE, type SiteConfig } from '../scan/site-config';
import { folderOfTree, isCommit, repositoryOf, treeAt } from './git-tree';

/** A version built with the current site, from another content folder, at its route under the site's base. */
export interface BuiltVersion {
  text: string;
  /** Its route under the site's base, such as `/v1/`: its pages are at `/docs/v1/…`, its output in `v1/`. */
  route: string;
  /** Its content folder (for a git ref, the ref's files read into the cache folder). */
  contentDir: string;
  /** Whether its problems fail the build; warnings otherwise. */
  strict: boolean;
  /** What its files' paths are reported under: its folder from the current one's, or the git ref and path. */
  label: string;
}

type VersionEntry = SiteConfig['versions'][number];

/** Folders of `dist/` (`assets/`) and `manifest/` (`pages/`, `search/`) that the site's own files are in. */
const SITE_FOLDERS = ['assets', 'pages', 'search'];

/**
 * The versions `_site.yaml` builds with this site, each checked: its folder exists, is outside the current
 * content folder and is no other version's; its git ref and path exist; its route is no other version's
 * and no page's. Each problem is an error at its line of `_site.yaml`; undefined when there is one.
 */
export async function builtVersions(
  contentDir: string,
  config: SiteConfig,
  configText: string,
  diagnostics: DiagnosticList,
  gitFolders: string,
  /** The current site's page files, relative to its folder (`/`-separated). */
  currentPages: readonly string[],
): Promise<BuiltVersion[] | undefined> {
  const doc = parseDocument(configText);
  const report = (index: number, key: string, message: string) => {
    const node = doc.getIn(['versions', index, key], true);
    const { line, column } = positionAt(configText, isNode(node) && node.range ? node.range[0] : 0);
    diagnostics.fatal(SITE_CONFIG_FILE, line, column, message);
  };
  const errors = diagnostics.errors.length;
  const currentRoot = realpathSync.native(contentDir);
  const folders = new Map<string, number>();
  const routes: { route: string; index: number }[] = [];
  const versions: BuiltVersion[] = [];
  for (const [index, entry] of config.versions.entries()) {
    if (entry.route === undefined) continue;
    const folder = await versionFolder(contentDir, entry, gitFolders, (key, message) => report(index, key, message));
    if (folder === undefined) continue;
    const key = entry.content !== undefined ? 'content' : 'git';
    const real = realpathSync.native(folder.contentDir);
    if (entry.content !== undefined && isInside(currentRoot, real)) {
      report(index, key, `version folder ${entry.content} is inside the current content folder: move it beside it`);
      continue;
    }
    const other = folders.get(real);
    if (other !== undefined) {
      report(
        index,
        key,
        `version folder ${entry.content ?? entry.git} is also version ${config.versions[other]?.text}'s`,
      );
      continue;
    }
    folders.set(real, index);
    const first = entry.route.split('/')[1] ?? '';
    if (SITE_FOLDERS.includes(first)) {
      report(
        index,
        'route',
        `route ${entry.route} is where the site keeps its own files: give the version another route`,
      );
      continue;
    }
    const clash = routes.find(({ route }) => route.startsWith(entry.route ?? '') || entry.route?.startsWith(route));
    if (clash) {
      const text = config.versions[clash.index]?.text ?? '';
      report(
        index,
        'route',
        `route ${entry.route} is also version ${text}'s (${clash.route}): each version needs its own`,
      );
      continue;
    }
    routes.push({ route: entry.route, index });
    versions.push({ text: entry.text, route: entry.route, strict: entry.strict ?? true, ...folder });
  }
  for (const { page, index } of pagesAtRoutes(currentPages, routes)) {
    const route = config.versions[index]?.route ?? '';
    report(index, 'route', `route ${route} is where page ${page} is: give the version another route`);
  }
  return diagnostics.errors.length > errors ? undefined : versions;
}

/** The folder of a version, from its `content` or its `git` ref; undefined with its problem reported. */
async function versionFolder(
  contentDir: string,
  entry: VersionEntry,
  gitFolders: string,
  report: (key: string, message: string) => void,
): Promise<{ contentDir: string; label: string } | undefined> {
  if (entry.content !== undefined) {
    const folder = path.resolve(contentDir, entry.content);
    if (!isFolder(folder)) return (report('content', `version folder ${entry.content} does not exist`), undefined);
    const label = path.relative(contentDir, folder).split(path.sep).join('/');
    return { contentDir: folder, label };
  }
  const ref = entry.git ?? '';
  const repository = await repositoryOf(contentDir);
  if (repository === undefined)
    return (report('git', `git ref ${ref}: the content folder is not in a git repository`), undefined);
  if (!(await isCommit(repository, ref)))
    return (report('git', `git ref ${ref} does not exist in this repository`), undefined);
  // By default the content folder where it is now in the repository.
  const inRepository =
    entry.path ?? path.relative(repository, realpathSync.native(contentDir)).split(path.sep).join('/');
  const tree = await treeAt(repository, ref, inRepository);
  if (tree === undefined) {
    return (
      report(entry.path === undefined ? 'git' : 'path', `git ref ${ref} has no folder ${inRepository || '.'}`),
      undefined
    );
  }
  return { contentDir: await folderOfTree(repository, tree, gitFolders), label: `${ref}:${inRepository}` };
}

function isFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** The current site's pages whose routes are at or under a version's route: the output of both would be one. */
function pagesAtRoutes(
  pages: readonly string[],
  routes: readonly { route: string; index: number }[],
): { page: string; index: number }[] {
  const found: { page: string; index: number }[] = [];
  for (const { route, index } of routes) {
    const page = pages.find((file) => routeFromRelativePath(file).startsWith(route));
    if (page) found.push({ page, index });
  }
  return found;
}
