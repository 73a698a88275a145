import { useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ASYNC_LOADING_DELAY_MS } from '../../shared/constants';

type Phase = 'idle' | 'loading' | 'done';

/**
 * Shows only for navigations slower than the spec's async loading delay, and always runs to the end,
 * also when the navigation fails (a failed load still resolves, with the error page).
 */
export function ProgressBar() {
  const router = useRouter();
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    let delay: ReturnType<typeof setTimeout> | undefined;
    let fade: ReturnType<typeof setTimeout> | undefined;
    const stopBefore = router.subscribe('onBeforeLoad', (event) => {
      if (!event.pathChanged && !event.hrefChanged) return;
      clearTimeout(delay);
      clearTimeout(fade);
      delay = setTimeout(() => setPhase('loading'), ASYNC_LOADING_DELAY_MS);
    });
    const stopResolved = router.subscribe('onResolved', () => {
      clearTimeout(delay);
      setPhase((current) => {
        if (current !== 'loading') return current;
        fade = setTimeout(() => setPhase('idle'), 400);
        return 'done';
      });
    });
    return () => {
      stopBefore();
      stopResolved();
      clearTimeout(delay);
      clearTimeout(fade);
    };
  }, [router]);

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
