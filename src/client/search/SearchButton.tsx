import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { retryableChunk } from '../app/lazy-chunk';
import { dropEarlyTyping, isSearchShortcut, takeEarlyShortcut } from '../app/search-shortcut';
import { ChunkBoundary } from '../components/ChunkBoundary';
import { useScreen } from '../data/screen';
import { useUi } from '../data/store';
import { startSearch } from './search-client-instance';

const SEARCH_CHUNK = 'search-dialog';
const loadDialog = retryableChunk(SEARCH_CHUNK, () => import('./SearchDialog'));
const lazyDialog = () => lazy(() => loadDialog());

/** The header's search box: opens the dialog, whose code and index load when the reader reaches for it. */
export function SearchButton() {
  const open = useUi((s) => s.searchOpen);
  const setOpen = useUi((s) => s.setSearchOpen);
  // React.lazy remembers a failed import for good, so each Retry starts a fresh one.
  const [SearchDialog, setSearchDialog] = useState(lazyDialog);
  const site = useScreen((s) => s.site);

  // A reader who focuses or points at the button is about to search: fetch the dialog's code and start
  // the search worker with its index now, side by side, so the first keystroke is answered sooner. The
  // dialog shares both loads (retryableChunk, the page's one search client) and reports a failure itself
  // when it opens; there is nothing to tell the reader before that.
  const prepare = () => {
    startSearch(site);
    loadDialog('prefetch').catch(() => {});
  };

  // However the dialog is opened (button, shortcut, a page's link), the index starts loading in the same
  // task as the dialog's code, not once that code has arrived and rendered: the two downloads overlap.
  useLayoutEffect(() => {
    if (!open) return;
    startSearch(site);
  }, [open, site]);

  // Search closed before its dialog took what the reader typed early: the boot script stops keeping it.
  useEffect(() => {
    if (open) return dropEarlyTyping;
  }, [open]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isSearchShortcut(event)) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    // A shortcut pressed before the app started (the boot script kept it) is answered now, and so is a
    // search the reader opened as the page reloaded onto a new app (new-app.ts).
    if (takeEarlyShortcut() || useUi.getState().takeReopening(SEARCH_CHUNK)) setOpen(true);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);

  return (
    <>
      {/* Named even when narrow screens hide the label; the shortcuts are announced with it. */}
      <button
        type="button"
        className="search-button"
        aria-label="Search"
        aria-keyshortcuts="/ Control+K Meta+K"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        onFocus={prepare}
        onPointerEnter={prepare}
      >
        <span aria-hidden="true">⌕</span>
        <span className="search-button-label">Search</span>
        <kbd className="search-button-key">/</kbd>
      </button>
      {open && (
        <div className="search-overlay-host">
          <ChunkBoundary what="Search" onRetry={() => setSearchDialog(lazyDialog)}>
            <Suspense fallback={null}>
              <SearchDialog onClose={() => setOpen(false)} />
            </Suspense>
          </ChunkBoundary>
        </div>
      )}
    </>
  );
}
