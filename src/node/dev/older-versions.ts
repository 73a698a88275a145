import path from 'node:path';
import { withBase } from '../../shared/paths';
import { buildOlderVersions, type BuildResult } from '../build';
import type { FSWatcher } from 'chokidar';
import type { SiteConfig } from '../site-stages';
import { watchFolder } from './watch-folder';

/** The older versions `npm run dev` serves beside the current one: their built site, and where each is. */
export interface OlderVersions {
  /** The built outputs, each version at its route inside. */
  distDir: string;
  /** Each version's place under the site's base (`/docs/v1/`). */
  bases: string[];
  result: BuildResult;
}

/**
 * Builds the older versions `_site.yaml` lists as `npm run build` does (src/node/versions/), into a folder
 * of the dev cache: a version unchanged since the last build is kept as it is, so building them again
 * after an edit in one costs that version's change. Undefined when the site builds none.
 */
export async function buildOlderVersionsForDev(
  /** The site's settings as the dev builder read them; none while `_site.yaml` cannot be read. */
  config: SiteConfig | undefined,
  options: { contentDir: string; srcDir: string; cacheDir: string; strict: boolean },
): Promise<OlderVersions | undefined> {
  if (!config) return undefined;
  const routes = config.versions.flatMap((version) => version.route ?? []);
  if (routes.length === 0) return undefined;
  const folder = path.join(options.cacheDir, 'older-versions');
  const distDir = path.join(folder, 'dist');
  const result = await buildOlderVersions({
    ...options,
    outDir: distDir,
    manifestDir: path.join(folder, 'manifest'),
    cacheDir: path.join(folder, 'cache'),
  });
  return { distDir, bases: routes.map((route) => withBase(config.base, route)), result };
}

/**
 * Watches the content folders of the older versions `config` builds from a folder (a version from a git
 * ref has no files to edit), and builds the versions again after an edit, one build at a time: only the
 * edited version changes. `built` is called with each build's result, `failed` with a build's fault.
 */
export function watchOlderVersions(
  config: SiteConfig | undefined,
  options: { contentDir: string; srcDir: string; cacheDir: string; strict: boolean; debounceMs?: number },
  built: (older: OlderVersions) => void,
  failed: (error: unknown) => void,
): FSWatcher[] {
  const folders = (config?.versions ?? []).flatMap((version) =>
    version.route !== undefined && version.content !== undefined
      ? [path.resolve(options.contentDir, version.content)]
      : [],
  );
  let timer: NodeJS.Timeout | undefined;
  let building = Promise.resolve();
  const buildAgain = () => {
    // Not after `npm run dev` has stopped watching.
    if (watchers.every((watcher) => watcher.closed)) return;
    building = building
      .then(() => buildOlderVersionsForDev(config, options))
      .then((older) => older && built(older))
      .catch(failed);
  };
  const watchers = folders.map((folder) =>
    watchFolder(folder, () => {
      clearTimeout(timer);
      timer = setTimeout(buildAgain, options.debounceMs ?? 5);
    }),
  );
  return watchers;
}
