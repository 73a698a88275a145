import type { DevUpdate } from '../../shared/dev-update';
import type { Diagnostic } from '../diagnostics';

/** What a step of `npm run dev`'s builder did, for its log and the open tabs. */
export interface DevResult {
  /** No error: a result with errors may still have written the site, which then shows them. */
  ok: boolean;
  /** Errors and warnings of the whole site as it is now on disk, sorted. */
  diagnostics: Diagnostic[];
  ms: number;
  /**
   * What the tabs read of what was written (none when nothing was): the deployment's pointer, whose
   * manifest the browser switches to, and the pages written again.
   */
  update?: DevUpdate;
  /** Routes whose fragment and index.html were written. */
  written: string[];
  /** The open tabs must reload: the client bundle, the stylesheet or the site configuration changed. */
  reload: boolean;
}

/** The result of a step that started at `started` (`performance.now()`), and wrote `update` if given. */
export function devResult(
  started: number,
  ok: boolean,
  diagnostics: Diagnostic[],
  written: string[],
  reload: boolean,
  update?: DevUpdate,
): DevResult {
  return {
    ok,
    diagnostics,
    ms: performance.now() - started,
    written,
    reload,
    ...(update ? { update } : {}),
  };
}
