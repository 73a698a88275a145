interface TaskScheduler {
  yield?: () => Promise<void>;
}

/**
 * Resolves in a later task, so the main thread can paint and answer input in between: the app's start is
 * cut into steps that each stay short. `scheduler.yield()` where the browser has it (the continuation
 * goes ahead of other queued work), a zero timeout elsewhere.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `run` in a task after the next frame has been painted: for reads of the layout that must not make
 * the browser lay out a new page before its first frame. Returns the cancel.
 */
export function afterPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (timer = setTimeout(run, 0)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
