/**
 * The reader's dismissal of the site's announcement, kept per announcement id in this browser. The boot
 * script applies it before the first paint (`data-announcement="dismissed"` on <html>, which the CSS
 * reads), so a dismissed bar never flashes; a bar with a new id shows again.
 */
const STORAGE_KEY = 'docs-announcement-dismissed';

/** In the boot script: hides the bar whose id its own <script> element names, when it was dismissed. */
export function hideDismissedAnnouncement(): void {
  const id = document.currentScript?.dataset['announcement'];
  if (id !== undefined && readDismissed() === id) document.documentElement.dataset['announcement'] = 'dismissed';
}

export function dismissAnnouncement(id: string): void {
  document.documentElement.dataset['announcement'] = 'dismissed';
  try {
    localStorage.setItem(STORAGE_KEY, id);
  } catch {
    // Storage refused (private mode): dismissed for this page view only.
  }
}

function readDismissed(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
