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

/** What the reader typed after asking for search before the app's dialog was there: its first query. */
const TYPED_ATTRIBUTE = 'searchTyped';
/** Sent by the search dialog once its field takes the typing (or by the app when search closes). */
const TYPING_TAKEN_EVENT = 'docs:search-typing-taken';

/**
 * Boot script: until the app listens, a shortcut is kept (and the browser's own use of it stopped). Once
 * the reader has asked for search (the shortcut, or a tap on the search button that early-taps.ts keeps),
 * what they type is kept on <html> until the dialog's field takes it.
 */
export function noteEarlyShortcut(): void {
  const root = document.documentElement;
  let asked = false;
  let appListens = false;
  const onKey = (event: KeyboardEvent) => {
    if (isSearchShortcut(event)) {
      if (appListens) return;
      event.preventDefault();
      root.dataset[PENDING_ATTRIBUTE] = 'true';
      asked = true;
      return;
    }
    if (!asked || event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
    const typed = root.dataset[TYPED_ATTRIBUTE] ?? '';
    if (event.key.length === 1) root.dataset[TYPED_ATTRIBUTE] = typed + event.key;
    else if (event.key === 'Backspace') root.dataset[TYPED_ATTRIBUTE] = typed.slice(0, -1);
    else return;
    // The key is the query's: a space does not scroll the page under the dialog that is opening.
    event.preventDefault();
  };
  const onClick = (event: MouseEvent) => {
    if (event.target instanceof Element && event.target.closest('.search-button')) asked = true;
  };
  window.addEventListener('keydown', onKey);
  // Registered before early-taps.ts's listener, which stops a kept tap from going further.
  window.addEventListener('click', onClick, true);
  window.addEventListener(
    APP_LISTENS_EVENT,
    () => {
      appListens = true;
      window.removeEventListener('click', onClick, true);
    },
    { once: true },
  );
  window.addEventListener(TYPING_TAKEN_EVENT, () => window.removeEventListener('keydown', onKey), { once: true });
}

/**
 * What the dialog's renders took of the early typing, until the dialog is there: React may throw a render
 * away and render again (one interrupted by a more urgent update), and the render that takes the text
 * from the boot script must not leave the next one nothing.
 */
let takenForDialog: string | undefined;

/** App: ends the boot script's keeping of typed text and returns it ('' when there was none). */
function takeEarlyTyping(): string {
  window.dispatchEvent(new Event(TYPING_TAKEN_EVENT));
  const root = document.documentElement;
  const typed = root.dataset[TYPED_ATTRIBUTE] ?? '';
  delete root.dataset[TYPED_ATTRIBUTE];
  return typed;
}

/** App: the search dialog's first query, what was typed early: the same for each render until `earlyQueryShown`. */
export function earlyQuery(): string {
  takenForDialog ??= takeEarlyTyping();
  return takenForDialog;
}

/** App: the dialog is there with its first query: the next dialog starts from what is typed by then. */
export function earlyQueryShown(): void {
  takenForDialog = undefined;
}

/** App: search closed, perhaps before its dialog was there: the boot script stops keeping typed text. */
export function dropEarlyTyping(): void {
  takeEarlyTyping();
  takenForDialog = undefined;
}

/** App: ends the boot script's watch and says whether a shortcut came before it. */
export function takeEarlyShortcut(): boolean {
  window.dispatchEvent(new Event(APP_LISTENS_EVENT));
  const root = document.documentElement;
  const pending = root.dataset[PENDING_ATTRIBUTE] === 'true';
  delete root.dataset[PENDING_ATTRIBUTE];
  return pending;
}
