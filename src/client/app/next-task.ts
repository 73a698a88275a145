interface TaskScheduler {
  yield?: () => Promise<void>;
  postTask?: (run: () => void, options: { priority: 'background'; signal: AbortSignal }) => Promise<void>;
}

const taskScheduler = (): TaskScheduler | undefined => (globalThis as { scheduler?: TaskScheduler }).scheduler;

/**
 * Resolves in a later task, so the main thread can paint and answer input in between: the app's start is
 * cut into steps that each stay short. `scheduler.yield()` where the browser has it (the continuation
 * goes ahead of other queued work), a zero timeout elsewhere.
 */
export function nextTask(): Promise<void> {
  const scheduler = taskScheduler();
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `run` in a task after the next frame has been painted: for reads of the layout that must not make
 * the browser lay out a new page before its first frame. The frame is on screen by then, and what follows
 * it (focus, the announcement, the title, the first reading of the heading) gives way to any other work
 * waiting (the reader's next tap, a page's data arriving): a background task where the browser has
 * `scheduler.postTask`, a zero timeout elsewhere. Returns the cancel.
 */
export function afterPaint(run: () => void): () => void {
  let cancelTask = () => {};
  const frame = requestAnimationFrame(() => {
    const scheduler = taskScheduler();
    if (typeof scheduler?.postTask === 'function') {
      const controller = new AbortController();
      // Cancelled: the task's promise rejects with the abort, which is no failure.
      scheduler.postTask(run, { priority: 'background', signal: controller.signal }).catch(() => {});
      cancelTask = () => controller.abort();
    } else {
      const timer = setTimeout(run, 0);
      cancelTask = () => clearTimeout(timer);
    }
  });
  return () => {
    cancelAnimationFrame(frame);
    cancelTask();
  };
}
