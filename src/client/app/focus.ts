/**
 * Whether focus is in a modal dialog the reader opened (search, an image shown whole): what the page does
 * meanwhile (a new page's heading, a page that failed) does not take focus from there.
 */
export function focusInDialog(): boolean {
  return document.activeElement?.closest('[aria-modal="true"], dialog[open]') != null;
}
