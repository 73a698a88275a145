import { isPageFile } from '../site-stages';
import type { DevBuilder } from './builder';
import type { DevResult } from './dev-result';
import type { RebuildReport } from './rebuild-report';
import type { DevServer } from './server';

export type RebuildListener = (result: DevResult, trigger: 'content' | 'src') => void;

/** How long the queue waits for the writer. */
export interface RebuildTiming {
  /** Quiet period after a file event before rebuilding, so one save is one rebuild. */
  debounceMs?: number;
  /** Quiet period after an edit before the search data is rebuilt. */
  searchDelayMs?: number;
}

export interface RebuildQueueOptions {
  builder: DevBuilder;
  dev: DevServer;
  tell: RebuildReport;
  log: (line: string, error?: boolean) => void;
  /** Bundles the dev client again, before a rebuild for a change under src/. */
  rebundleLiveClient: () => Promise<void>;
  /** Called after every rebuild, with what triggered it. */
  listeners: readonly RebuildListener[];
}

export interface RebuildQueue {
  /** A file under the content folder changed (`''`: something did, no name given). */
  contentChanged(file: string): void;
  /** A file of the app under src/ changed. */
  sourceChanged(): void;
  /** Settles once the first page pass has made the whole site and it is written. */
  built: Promise<void>;
  /** Takes no more work: what runs goes on, what waits is dropped. */
  stop(): void;
  /** Settles when the work under way has ended. */
  idle(): Promise<void>;
}

/**
 * The first page pass of `npm run dev`, then a rebuild for each pause in the writer's saves, then the
 * search data once the writer pauses longer. Rebuilds never overlap: events that arrive during one are
 * collected for the next.
 */
export function startRebuildQueue(timing: RebuildTiming, options: RebuildQueueOptions): RebuildQueue {
  const { builder, dev, tell, log, listeners } = options;
  const pendingContent = new Set<string>();
  let pendingSrc = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  async function rebuild(): Promise<void> {
    while ((pendingSrc || pendingContent.size > 0) && !closed) {
      const src = pendingSrc;
      // An event without a file name ("something changed") means: look at everything.
      const changed = pendingContent.has('') ? [] : [...pendingContent];
      pendingSrc = false;
      pendingContent.clear();
      try {
        if (src) {
          await options.rebundleLiveClient();
          const result = await builder.sourceChanged();
          tell.report(result, 'rebuilt the app bundle');
          tell.sendProblems(result);
          if (result.update) dev.broadcast({ type: 'reload' });
          for (const listener of listeners) listener(result, 'src');
        } else {
          const result = await builder.contentChanged(changed);
          const what = result.written.length
            ? `rebuilt ${result.written.length === 1 ? result.written[0] : `${result.written.length} pages`}`
            : `rebuilt (${changed.join(', ')})`;
          tell.report(result, what);
          if (result.update && (result.reload || reloadNext)) {
            reloadNext = false;
            dev.refresh();
            dev.broadcast({ type: 'reload' });
          } else if (result.update) {
            tell.broadcastContent(result);
            scheduleSearch();
          }
          tell.sendProblems(result);
          for (const listener of listeners) listener(result, 'content');
        }
      } catch (error) {
        log(`dev: rebuild failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, true);
      }
    }
  }

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // Saved while the first page pass runs: shown at once, made again once the pass is done.
      if (!built) previewSaved([...pendingContent].filter(isPageFile));
      // The running loop picks the new events up; a search update running stops for them.
      if (running) return builder.stopSearch();
      running = rebuild().finally(() => {
        running = undefined;
        if (pendingSrc || pendingContent.size > 0) schedule();
      });
    }, timing.debounceMs ?? 5);
  };
  // The search data is rebuilt once the writer pauses (it takes longer than the rest of a rebuild).
  let searchTimer: NodeJS.Timeout | undefined;
  const scheduleSearch = () => {
    if (searchTimer) clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      searchTimer = undefined;
      if (closed) return;
      if (running || timer || pendingSrc || pendingContent.size > 0) return scheduleSearch();
      running = (async () => {
        const result = await builder.updateSearch();
        if (!result) return;
        log(`✓ updated the search data in ${Math.round(result.ms)} ms`);
        tell.broadcastContent(result);
      })()
        .catch((error: unknown) => log(`dev: search update failed: ${String(error)}`, true))
        .finally(() => {
          running = undefined;
          if (pendingSrc || pendingContent.size > 0) schedule();
        });
    }, timing.searchDelayMs ?? 800);
  };

  function previewSaved(files: string[]): void {
    if (files.length === 0) return;
    builder.preview(files).then(
      (result) => result && tell.showEarly(result, files.join(', ')),
      (error: unknown) => log(`dev: could not make ${files.join(', ')}: ${String(error)}`, true),
    );
  }
  // The first page pass, behind the server; the rebuild queue waits for it.
  let built = false;
  let reloadNext = false;
  const firstBuild = builder
    .fullBuild()
    .then((first) => {
      tell.report(first, 'built the site');
      tell.sendProblems(first);
      // Tabs shown pages made ahead take the whole site (a new stylesheet reloads them), after the saves.
      if (pendingSrc || pendingContent.size > 0) reloadNext = first.reload;
      else if (first.update && first.reload) dev.broadcast({ type: 'reload' });
      else tell.broadcastContent(first);
    })
    .catch((error: unknown) => {
      if (!closed) log(`dev: the first build failed: ${String(error)}`, true);
    })
    .finally(() => {
      built = true;
      running = undefined;
      if (pendingSrc || pendingContent.size > 0) schedule();
      // The whole site is written with the search data of the pages made ahead: brought up to date as after a save.
      scheduleSearch();
    });
  running = firstBuild;

  return {
    contentChanged(file) {
      pendingContent.add(file);
      schedule();
    },
    sourceChanged() {
      pendingSrc = true;
      schedule();
    },
    built: firstBuild,
    stop() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (searchTimer) clearTimeout(searchTimer);
    },
    idle: async () => await running,
  };
}
