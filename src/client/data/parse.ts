import { FRAGMENT_CLOSE, FRAGMENT_OPEN } from '../../shared/constants';
import type { RouteShard, SidebarGroupFile, SiteCore } from '../../shared/site-data';
import type { SearchEntry } from '../../shared/search-layout';
import type { DeploymentPointer } from '../../shared/types';
import { WrongContentError } from './fetch-chunk';

/** A fragment file is `<!--docs-fragment-->…<!--/docs-fragment-->`; anything else is not ours. */
export function parseFragment(text: string): string {
  if (!text.startsWith(FRAGMENT_OPEN)) throw new WrongContentError(false);
  const end = text.lastIndexOf(FRAGMENT_CLOSE);
  if (end < 0) throw new WrongContentError(true);
  return text.slice(FRAGMENT_OPEN.length, end);
}

/** A JSON file's value; an HTML page in its place (a host's fallback) or a cut-off file is not the file asked for. */
export function parseJson(text: string): unknown {
  if (text.trimStart().startsWith('<')) throw new WrongContentError(false);
  try {
    return JSON.parse(text);
  } catch {
    throw new WrongContentError(true);
  }
}

/** The browser's manifest (the site core): the settings, and the route shards the records are in. */
export function parseSiteCore(text: string): SiteCore {
  const value = parseJson(text) as Partial<SiteCore> | null;
  if (!value || typeof value.hash !== 'string' || !Array.isArray(value.shards) || !value.site) {
    throw new WrongContentError(false);
  }
  return value as SiteCore;
}

export function parsePointer(text: string): DeploymentPointer {
  const value = parseJson(text) as Partial<DeploymentPointer> | null;
  if (!value || typeof value.manifest !== 'string') throw new WrongContentError(false);
  return value as DeploymentPointer;
}

export function parseSearchEntry(text: string): SearchEntry {
  const value = parseJson(text) as Partial<SearchEntry> | null;
  if (
    !value ||
    value.v !== 5 ||
    typeof value.hashes !== 'object' ||
    !Array.isArray(value.sections) ||
    !Array.isArray(value.letters)
  ) {
    throw new WrongContentError(false);
  }
  return value as SearchEntry;
}

export function parseRouteShard(text: string): RouteShard {
  const value = parseJson(text) as Partial<RouteShard> | null;
  if (!value || !Array.isArray(value.pages)) throw new WrongContentError(false);
  return value as RouteShard;
}

export function parseSidebarGroup(text: string): SidebarGroupFile {
  const value = parseJson(text) as Partial<SidebarGroupFile> | null;
  if (!value || !Array.isArray(value.items)) throw new WrongContentError(false);
  return value as SidebarGroupFile;
}
