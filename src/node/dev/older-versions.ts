import path from 'node:path';
import { withBase } from '../../shared/paths';
import { buildOlderVersions, type BuildResult } from '../build';
import type { SiteConfig } from '../site-stages';

/** The older versions `npm run dev` serves beside the current one: their built site, and where each is. */
export interface OlderVersions {
  /** The built outputs, each version at its route inside. */
  distDir: string;
  /** Each version's place under the site's base (`/docs/v1/`). */
  bases: string[];
  result: BuildResult;
}

/**
 * Builds the older versions `_site.yaml` lists, once, as `npm run build` does (src/node/versions/), into a
 * folder of the dev cache: a version unchanged since the last `npm run dev` is kept as it is. Undefined
 * when the site builds none. An edit in an older version shows at the next start.
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
