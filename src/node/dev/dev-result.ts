import type { Manifest } from '../../shared/types';
import type { Diagnostic } from '../diagnostics';
import { pointerOf } from '../site-stages';

/** What a step of `npm run dev`'s builder did, for its log and the open tabs. */
export interface DevResult {
  /** No error: a result with errors may still have written the site, which then shows them. */
  ok: boolean;
  /** Errors and warnings of the whole site as it is now on disk, sorted. */
  diagnostics: Diagnostic[];
  ms: number;
  /** The manifest the browser should switch to (when the output was written). */
  manifest?: string;
  /** Routes whose fragment and index.html were written. */
  written: string[];
  /** The open tabs must reload: the client bundle, the stylesheet or the site configuration changed. */
  reload: boolean;
}

/** The result of a step that started at `started` (`performance.now()`), and wrote `manifest` if given. */
export function devResult(
  started: number,
  ok: boolean,
  diagnostics: Diagnostic[],
  written: string[],
  reload: boolean,
  manifest?: Manifest,
): DevResult {
  return {
    ok,
    diagnostics,
    ms: performance.now() - started,
    written,
    reload,
    ...(manifest ? { manifest: pointerOf(manifest).manifest } : {}),
  };
}
