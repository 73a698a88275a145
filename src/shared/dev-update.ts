import type { DeploymentPointer } from './types';

/** A page a rebuild of `npm run dev` wrote again, with the files a tab showing it reads. */
export interface UpdatedPage {
  /** Its route, as its record names it (`PageMeta.path`). */
  path: string;
  /** Its key, which names it in a failure's explanation. */
  key: string;
  /** The name of the route shard that holds its record (`SiteCore.shards`). */
  shard: string;
  /** Its fragment's URL. */
  fragment: string;
}

/**
 * What a rebuild of `npm run dev` wrote, as the dev server tells the open tabs: the deployment pointer
 * (what `version.json` now says) and the pages written again, so that a tab showing one of them asks for
 * its manifest, route shard and fragment at once, side by side, instead of one after another.
 */
export interface DevUpdate {
  pointer: DeploymentPointer;
  pages: UpdatedPage[];
}

/**
 * At most this many pages are named: a save writes one page or a few; a rebuild of the whole site would
 * send every page to every tab, which then reads the files one after another as a tab of the built site does.
 */
export const UPDATED_PAGES_NAMED = 16;
