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

/**
 * A message of `npm run dev`'s event stream, one JSON object per Server-Sent Event, as the dev server sends
 * it and the dev client reads it. `content`: a rebuild wrote the site, and with `update` the files a tab
 * showing a page written again reads (without it, a tab reads the deployment from `version.json`).
 * `reload`: the app's code or stylesheet changed. `problems`: the site's problems changed; a tab asks for
 * its page's (they are not in the stream: an imported tree can have thousands, megabytes every tab would
 * parse at every save before it could show the save).
 */
export type DevEvent =
  { type: 'content'; update?: DevUpdate } | { type: 'reload' } | { type: 'problems'; errors: number };
