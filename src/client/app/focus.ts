/**
 * Whether focus is in a modal dialog the reader opened (search, an image shown whole): what the page does
 * meanwhile (a new page's heading, a page that failed) does not take focus from there.
 */
export function focusInDialog(): boolean {
  return document.activeElement?.closest('[aria-modal="true"], dialog[open]') != null;
}

/** The heading of the page on screen, which takes focus when the page changes and the reader has not moved it. */
export function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('#main-content h1');
}
