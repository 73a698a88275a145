import { fetchPointer } from '../data/files';
import { pageStartAssets } from './start-app';
import { endWholeLayoutAfterPaint, layOutWhole } from './whole-layout';

/**
 * A script chunk of this app that is gone is the same news as a page's fragment that is gone: a new
 * deployment replaced it. A new fragment can be read by the running app, but a new chunk belongs to a new
 * app, whose chunk names only its own entry knows; so the tab moves onto the new deployment by loading the
 * current URL again, where the reader was and with what they were opening (the search dialog) open again.
 * Once per URL and app: should the new app fail the same way, the reader gets the explanation and Retry.
 */

const PLACE_KEY = 'docs-place-before-reload';
const RELOAD_GUARD_KEY = 'docs-recovery-reload';

interface KeptPlace {
  url: string;
  scrollY: number;
  /** The lazy chunk the reader was opening, to open again. */
  opening: string;
}

/**
 * Reloads the page when the deployment pointer names another app than the one running; resolves false
 * (and changes nothing) when it names this one, cannot be read, or the reload was already tried.
 */
export async function reloadOntoNewApp(opening: string): Promise<boolean> {
  const assets = pageStartAssets();
  if (!assets) return false;
  let app: string | undefined;
  try {
    app = (await fetchPointer(assets.pointer, undefined)).app;
  } catch {
    return false;
  }
  if (app === undefined || app === assets.entry) return false;
  const url = window.location.href;
  if (!claimReload(`${url}@${app}`)) return false;
  try {
    const place: KeptPlace = { url, scrollY: window.scrollY, opening };
    sessionStorage.setItem(PLACE_KEY, JSON.stringify(place));
  } catch {
    // Without storage the page still moves onto the new app, at its top.
  }
  window.location.reload();
  return true;
}

/**
 * After such a reload: scrolls back to where the reader was, and returns the chunk they were opening (for
 * the UI store, whose views open it). Called once the app has taken the page over.
 */
export function restorePlaceAfterReload(): string | undefined {
  let place: KeptPlace | undefined;
  try {
    const kept = sessionStorage.getItem(PLACE_KEY);
    sessionStorage.removeItem(PLACE_KEY);
    place = kept ? (JSON.parse(kept) as KeptPlace) : undefined;
  } catch {
    return undefined;
  }
  if (!place || place.url !== window.location.href) return undefined;
  layOutWhole();
  window.scrollTo(0, place.scrollY);
  endWholeLayoutAfterPaint();
  return place.opening;
}

/**
 * Whether a reload for `token` (a target and a deployment) may happen: true once, and never without
 * storage, where nothing could stop a loop.
 */
export function claimReload(token: string): boolean {
  try {
    if (sessionStorage.getItem(RELOAD_GUARD_KEY) === token) return false;
    sessionStorage.setItem(RELOAD_GUARD_KEY, token);
    return true;
  } catch {
    return false;
  }
}
