/** Run-time limits and timings that the app itself obeys (the writer-facing ones live in content/_site.yaml). */

/** A page fragment or script chunk that has not arrived after this long fails with type `timeout`. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** The active-heading tracker handles scroll events at most this often. */
export const SCROLL_THROTTLE_MS = 300;

/** The progress bar appears only for navigations slower than this. */
export const ASYNC_LOADING_DELAY_MS = 200;

/** Markers that open and close every page fragment, so a truncated or substituted file is detected. */
export const FRAGMENT_OPEN = '<!--docs-fragment-->';
export const FRAGMENT_CLOSE = '<!--/docs-fragment-->';
