import { useSyncExternalStore } from 'react';
import { applyTheme, storeTheme } from '../app/theme';
import { useUi, type ThemeChoice } from '../data/store';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeToSystem(onChange: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** Light or dark; until the reader picks one, the site follows the system setting. */
export function ThemeToggle() {
  // The server cannot know the reader's choice: it renders "system" and the browser corrects it after hydration.
  const systemDark = useSyncExternalStore(
    subscribeToSystem,
    () => window.matchMedia(DARK_QUERY).matches,
    () => false,
  );
  const theme = useSyncExternalStore<ThemeChoice>(
    useUi.subscribe,
    () => useUi.getState().theme,
    () => 'system',
  );
  const setTheme = useUi((s) => s.setTheme);
  const dark = theme === 'dark' || (theme === 'system' && systemDark);
  return (
    <button
      type="button"
      className="theme-toggle"
      aria-label={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      aria-pressed={dark}
      onClick={() => {
        const next = dark ? 'light' : 'dark';
        setTheme(next);
        storeTheme(next);
        applyTheme(next);
      }}
    >
      <span aria-hidden="true">{dark ? '☀' : '☾'}</span>
    </button>
  );
}
