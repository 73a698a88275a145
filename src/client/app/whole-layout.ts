import { afterPaint } from './next-task';

/**
 * A page's code blocks and tables out of view are not laid out (app.css, `content-visibility`): each counts
 * as its last size, or as a guess before it was ever shown. A scroll position restored by number (back and
 * forward, a reload onto a new app) must land on the content it was taken on, so the page is laid out
 * whole until it has been restored and painted; the sizes laid out then are the ones kept from then on.
 */
export function layOutWhole(): void {
  document.documentElement.dataset['layout'] = 'whole';
}

/** Ends `layOutWhole` once the next frame has been painted (nothing to do when it was not asked for). */
export function endWholeLayoutAfterPaint(): void {
  if (document.documentElement.dataset['layout'] !== 'whole') return;
  afterPaint(() => delete document.documentElement.dataset['layout']);
}
