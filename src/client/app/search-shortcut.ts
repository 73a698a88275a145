/**
 * The search shortcuts (`/`, Ctrl+K, ⌘K), shared by the boot script and the app. The boot script runs
 * before the first paint, long before the app has started: it notes a shortcut pressed in that gap on
 * <html>, and the app opens search for it once its own listener is in place.
 */

/** Set on <html> by the boot script when a shortcut came before the app. */
const PENDING_ATTRIBUTE = 'searchPending';
/** Sent by the app once it listens itself; the boot script then stops. */
const APP_LISTENS_EVENT = 'docs:search-shortcut-ready';

/** Whether a key press asks for search: Ctrl/⌘+K anywhere, `/` when the reader is not typing. */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  if (event.key === 'k' && (event.metaKey || event.ctrlKey)) return true;
  if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey) return false;
  const typing = event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable]');
  return !typing;
}

/** Boot script: until the app listens, a shortcut is kept (and the browser's own use of it stopped). */
export function noteEarlyShortcut(): void {
  const onKey = (event: KeyboardEvent) => {
    if (!isSearchShortcut(event)) return;
    event.preventDefault();
    document.documentElement.dataset[PENDING_ATTRIBUTE] = 'true';
  };
  window.addEventListener('keydown', onKey);
  window.addEventListener(APP_LISTENS_EVENT, () => window.removeEventListener('keydown', onKey), { once: true });
}

/** App: ends the boot script's watch and says whether a shortcut came before it. */
export function takeEarlyShortcut(): boolean {
  window.dispatchEvent(new Event(APP_LISTENS_EVENT));
  const root = document.documentElement;
  const pending = root.dataset[PENDING_ATTRIBUTE] === 'true';
  delete root.dataset[PENDING_ATTRIBUTE];
  return pending;
}
