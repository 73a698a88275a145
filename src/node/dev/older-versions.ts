import path from 'node:path';
import { withBase } from '../../shared/paths';
import { buildOlderVersions, type BuildResult } from '../build';
import { formatDiagnostic } from '../diagnostics';
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
 * Where `npm run dev` builds the older versions `_site.yaml` lists, and serves each: undefined when the
 * site builds none (or `_site.yaml` cannot be read, `config` undefined).
 */
export function olderVersionsPlace(
  config: SiteConfig | undefined,
  cacheDir: string,
): Omit<OlderVersions, 'result'> | undefined {
  const routes = (config?.versions ?? []).flatMap((version) => version.route ?? []);
  if (!config || routes.length === 0) return undefined;
  return { distDir: path.join(cacheDir, 'older-versions', 'dist'), bases: routes.map((r) => withBase(config.base, r)) };
}

/**
 * Builds the older versions as `npm run build` does (src/node/versions/), into a folder of the dev cache
 * (`olderVersionsPlace`): a version unchanged since the last build is kept as it is, so building them
 * again after an edit in one costs that version's change. Undefined when the site builds none.
 */
export async function buildOlderVersionsForDev(
  /** The site's settings as the dev builder read them; none while `_site.yaml` cannot be read. */
  config: SiteConfig | undefined,
  options: OlderOptions,
): Promise<OlderVersions | undefined> {
  const place = olderVersionsPlace(config, options.cacheDir);
  return place && buildAt(place, options);
}

/** Builds the older versions into `place` (`olderVersionsPlace`). */
async function buildAt(place: Omit<OlderVersions, 'result'>, options: OlderOptions): Promise<OlderVersions> {
  const folder = path.dirname(place.distDir);
  const result = await buildOlderVersions({
    ...options,
    outDir: place.distDir,
    manifestDir: path.join(folder, 'manifest'),
    cacheDir: path.join(folder, 'cache'),
  });
  return { ...place, result };
}

/** What the older versions are built from: the current site's folders, and whether it is strict. */
type OlderOptions = { contentDir: string; srcDir: string; cacheDir: string; strict: boolean };

/** What `npm run dev` says of the older versions' builds: where it logs. */
type Logged = { log: (line: string, error?: boolean) => void };

/** The result of a build of the older versions, and its problems, as `npm run dev` logs them. */
function report(result: BuildResult, { log }: Logged): void {
  for (const d of result.diagnostics) log(formatDiagnostic(d), d.severity === 'error');
  if (result.ok) log(`✓ built the older versions (${result.pages} pages) in ${Math.round(result.seconds * 1000)} ms`);
  else log('✗ the older versions did not build: they are served as they last built', true);
}

const failure = (error: unknown, { log }: Logged) =>
  log(`dev: the older versions did not build: ${String(error)}`, true);

/**
 * The older versions' place, and their build started: `npm run dev` serves them as soon as it is made
 * (a request for one of their pages waits for `built`), and logs the build's result.
 */
export function startOlderVersions(
  config: SiteConfig | undefined,
  options: OlderOptions & Logged,
): (Omit<OlderVersions, 'result'> & { built: Promise<unknown> }) | undefined {
  const place = olderVersionsPlace(config, options.cacheDir);
  if (!place) return undefined;
  const built = buildAt(place, options).then(
    (older) => report(older.result, options),
    (error: unknown) => failure(error, options),
  );
  return { ...place, built };
}

/**
 * Watches the content folders of the older versions `config` builds from a folder (a version from a git
 * ref has no files to edit), and builds the versions again after an edit, one build at a time: only the
 * edited version changes. Each build is logged, and `built` called with a build that made them.
 */
export function watchOlderVersions(
  config: SiteConfig | undefined,
  options: OlderOptions & Logged & { debounceMs?: number },
  built: (older: OlderVersions) => void,
  /** The build of the versions as the session started: an edit meanwhile builds them again after it. */
  first: Promise<unknown> = Promise.resolve(),
): FSWatcher[] {
  const folders = (config?.versions ?? []).flatMap((version) =>
    version.route !== undefined && version.content !== undefined
      ? [path.resolve(options.contentDir, version.content)]
      : [],
  );
  let timer: NodeJS.Timeout | undefined;
  let building = first.catch(() => undefined);
  const buildAgain = () => {
    // Not after `npm run dev` has stopped watching.
    if (watchers.every((watcher) => watcher.closed)) return;
    building = building
      .then(() => buildOlderVersionsForDev(config, options))
      .then((older) => {
        if (!older) return;
        report(older.result, options);
        built(older);
      })
      .catch((error: unknown) => failure(error, options));
  };
  const watchers = folders.map((folder) =>
    watchFolder(folder, () => {
      clearTimeout(timer);
      timer = setTimeout(buildAgain, options.debounceMs ?? 5);
    }),
  );
  return watchers;
}
