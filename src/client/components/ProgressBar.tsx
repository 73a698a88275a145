import { useEffect, useState } from 'react';
import { ASYNC_LOADING_DELAY_MS } from '../../shared/constants';
import { useScreenStore } from '../data/screen';

type Phase = 'idle' | 'loading' | 'done';

/**
 * Shows only for navigations slower than the spec's async loading delay, and always runs to the end,
 * also when the navigation fails (a failed load still resolves, with the error page).
 */
export function ProgressBar() {
  const screen = useScreenStore();
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    let delay: ReturnType<typeof setTimeout> | undefined;
    let fade: ReturnType<typeof setTimeout> | undefined;
    const stop = screen.subscribe(({ pending }, before) => {
      if (pending === before.pending) return;
      clearTimeout(delay);
      if (pending) {
        clearTimeout(fade);
        delay = setTimeout(() => setPhase('loading'), ASYNC_LOADING_DELAY_MS);
        return;
      }
      setPhase((current) => {
        if (current !== 'loading') return current;
        fade = setTimeout(() => setPhase('idle'), 400);
        return 'done';
      });
    });
    return () => {
      stop();
      clearTimeout(delay);
      clearTimeout(fade);
    };
  }, [screen]);

  return (
    <div
      className={`progress-bar progress-${phase}`}
      role="progressbar"
      aria-hidden={phase === 'idle'}
      aria-label="Loading page"
      data-phase={phase}
    />
  );
}
