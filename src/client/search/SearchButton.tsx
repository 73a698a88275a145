import { lazy, Suspense, useEffect } from 'react';
import { useUi } from '../data/store';

const SearchDialog = lazy(() => import('./SearchDialog'));

/** The header's search box: opens the dialog, whose code and index load on first use. */
export function SearchButton() {
  const open = useUi((s) => s.searchOpen);
  const setOpen = useUi((s) => s.setSearchOpen);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = event.target instanceof HTMLElement && event.target.closest('input, textarea, [contenteditable]');
      if ((event.key === 'k' && (event.metaKey || event.ctrlKey)) || (event.key === '/' && !typing)) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);

  return (
    <>
      <button type="button" className="search-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <span aria-hidden="true">⌕</span>
        <span className="search-button-label">Search</span>
        <kbd className="search-button-key">/</kbd>
      </button>
      {open && (
        <Suspense fallback={null}>
          <SearchDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
