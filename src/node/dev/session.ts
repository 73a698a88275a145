import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { routeFromRelativePath } from '../../shared/paths';
import { formatDiagnostic } from '../diagnostics';
import { isPageFile } from '../site-stages';
import { DevBuilder } from './builder';
import type { DevResult } from './dev-result';
import { startOlderVersions, watchOlderVersions } from './older-versions';
import { createDevServer, DEV_SCRIPT_PATH, type DevServer } from './server';
import { watchFolder } from './watch-folder';

export interface DevSessionOptions {
  contentDir: string;
  srcDir: string;
  /** The highlight cache, kept between rebuilds. */
  cacheDir: string;
  /** The dev output; a fresh temporary folder (removed by close) when not given. */
  outDir?: string;
  port?: number;
  host?: string;
  strict?: boolean;
  /** Quiet period after a file event before rebuilding, so one save is one rebuild. */
  debounceMs?: number;
  /** Quiet period after an edit before the search data is rebuilt. */
  searchDelayMs?: number;
  /** Progress lines; `error` is set for the lines of content errors and failures. */
  log?: (line: string, error?: boolean) => void;
}

export interface DevSession {
  url: string;
  outDir: string;
  builder: DevBuilder;
  server: DevServer;
  /** Settles once the first page pass has made the whole site and it is written. */
  built: Promise<void>;
  /** Called after every rebuild, with what triggered it. */
  onRebuild(listener: (result: DevResult, trigger: 'content' | 'src') => void): void;
  close(): Promise<void>;
}

/** Bundles src/client/dev/live.ts for the browser: one classic script, not minified (it is for writers' eyes). */
export async function bundleLiveClient(srcDir: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [path.join(srcDir, 'client/dev/live.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** The URL of the page a problem's file makes, for the tab that shows it; none for `_site.yaml` and the like. */
const pageOf = (file: string, base: string): { page?: string } =>
  isPageFile(file) ? { page: base + routeFromRelativePath(file).slice(1) } : {};

/**
 * `npm run dev`: one full build into the dev output, then the dev server and two watchers. A change under
 * the content folder re-renders only what changed; a change under src/ rebundles and reloads the tabs.
 * Rebuilds never overlap: events that arrive during one are collected for the next.
 */
export async function startDevSession(options: DevSessionOptions): Promise<DevSession> {
  const log = options.log ?? (() => {});
  const ownOut = !options.outDir;
  const outDir = options.outDir ?? (await mkdtemp(path.join(tmpdir(), 'docs-dev-')));
  // Bundled while the site is read; its failure is thrown where it is awaited.
  const bundlingLiveClient = bundleLiveClient(options.srcDir);
  bundlingLiveClient.catch(() => {});
  const builder = await DevBuilder.create({
    contentDir: options.contentDir,
    outDir,
    cacheDir: options.cacheDir,
    srcDir: options.srcDir,
    strict: options.strict ?? true,
    devScript: DEV_SCRIPT_PATH,
  });
  const listeners: ((result: DevResult, trigger: 'content' | 'src') => void)[] = [];

  // The server answers once the site is read and the app bundled; the first page pass runs behind it, and
  // the pages asked for (or saved) before it ends are made ahead of it (DevBuilder.preview).
  await builder.readFirst();
  let liveScript = await bundlingLiveClient;
  const base = builder.config?.base ?? '/docs/';
  // The older versions are built behind the server too: a request for one of their pages waits for them.
  const olderOptions = { ...options, strict: options.strict ?? true, log };
  const older = startOlderVersions(builder.config, olderOptions);
  const dev = createDevServer({
    distDir: outDir,
    base,
    analytics: Boolean(builder.config?.analyticsId),
    liveScript: () => liveScript,
    prepare: async (pathname) => {
      const previewed = await builder.prepare(pathname);
      if (previewed) showEarly(previewed, pathname);
    },
    ...(older && { olderVersions: older }),
  });

  /** Tells the tabs a page made ahead of the first page pass, and its problems. */
  function showEarly(result: DevResult, what: string): void {
    report(result, `made ${what} ahead of the rest`);
    if (result.written.length > 0) broadcastContent(result);
    sendProblems(result);
  }

  /** Tells the tabs the site `result` wrote, and what a tab reads of it to show a page written again. */
  const broadcastContent = ({ update }: DevResult) => update && dev.broadcast({ type: 'content', update });

  // The problems of the last report: a rebuild prints only those it did not, or an imported tree's
  // thousands of old broken links would scroll past at every save, the save's own problem among them.
  let reported = new Set<string>();
  function report(result: DevResult, what: string): void {
    const lines = result.diagnostics.map((d) => ({ text: formatDiagnostic(d), error: d.severity === 'error' }));
    for (const { text, error } of lines) if (!reported.has(text)) log(text, error);
    reported = new Set(lines.map(({ text }) => text));
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    const s = errors === 1 ? '' : 's';
    if (result.ok) log(`✓ ${what} in ${Math.round(result.ms)} ms`);
    else if (result.update) log(`✗ ${what} with ${errors} error${s}: the pages show them in the browser`, true);
    else log(`✗ ${errors} error${s}: the browser keeps the last good site`, true);
  }

  /** Tells the tabs the site's problems after a rebuild: none (the overlay goes) when it has no error. */
  function sendProblems(result: DevResult): void {
    const diagnostics = result.ok ? [] : result.diagnostics.map((d) => ({ ...d, ...pageOf(d.file, base) }));
    dev.broadcast({ type: 'problems', diagnostics, written: result.update !== undefined });
  }
  // ---- the rebuild queue
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
          liveScript = await bundleLiveClient(options.srcDir);
          const result = await builder.sourceChanged();
          report(result, 'rebuilt the app bundle');
          sendProblems(result);
          if (result.update) dev.broadcast({ type: 'reload' });
          for (const listener of listeners) listener(result, 'src');
        } else {
          const result = await builder.contentChanged(changed);
          const what = result.written.length
            ? `rebuilt ${result.written.length === 1 ? result.written[0] : `${result.written.length} pages`}`
            : `rebuilt (${changed.join(', ')})`;
          report(result, what);
          if (result.update && (result.reload || reloadNext)) {
            reloadNext = false;
            dev.refresh();
            dev.broadcast({ type: 'reload' });
          } else if (result.update) {
            broadcastContent(result);
            scheduleSearch();
          }
          sendProblems(result);
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
    }, options.debounceMs ?? 5);
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
        broadcastContent(result);
      })()
        .catch((error: unknown) => log(`dev: search update failed: ${String(error)}`, true))
        .finally(() => {
          running = undefined;
          if (pendingSrc || pendingContent.size > 0) schedule();
        });
    }, options.searchDelayMs ?? 800);
  };

  function previewSaved(files: string[]): void {
    if (files.length === 0) return;
    builder.preview(files).then(
      (result) => result && showEarly(result, files.join(', ')),
      (error: unknown) => log(`dev: could not make ${files.join(', ')}: ${String(error)}`, true),
    );
  }
  // The first page pass, behind the server; the rebuild queue waits for it.
  let built = false;
  let reloadNext = false;
  const firstBuild = builder
    .fullBuild()
    .then((first) => {
      report(first, 'built the site');
      sendProblems(first);
      // Tabs shown pages made ahead take the whole site (a new stylesheet reloads them), after the saves.
      if (pendingSrc || pendingContent.size > 0) reloadNext = first.reload;
      else if (first.update && first.reload) dev.broadcast({ type: 'reload' });
      else broadcastContent(first);
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
  await new Promise<void>((resolve, reject) => {
    dev.server.once('error', reject);
    dev.server.listen(options.port ?? 5173, options.host ?? '127.0.0.1', () => resolve());
  });

  const contentWatcher = watchFolder(options.contentDir, (name) => {
    pendingContent.add(name);
    schedule();
  });
  const srcWatcher = watchFolder(options.srcDir, (file) => {
    if (file.startsWith('node/')) {
      log(`src/${file} changed: the build code is loaded once, restart "npm run dev" to use it`);
      return;
    }
    pendingSrc = true;
    schedule();
  });
  // An edit in an older version builds the versions again; its tabs read their version's pointer again.
  const olderWatchers = watchOlderVersions(
    builder.config,
    olderOptions,
    (again) => {
      if (again.result.ok) dev.broadcast({ type: 'content' });
    },
    older?.built,
  );
  const watchers = [contentWatcher, srcWatcher, ...olderWatchers];
  await Promise.all(watchers.map((watcher) => new Promise<void>((resolve) => watcher.once('ready', () => resolve()))));
  const address = dev.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}${base}`;

  return {
    url,
    outDir,
    builder,
    server: dev,
    built: firstBuild,
    onRebuild: (listener) => void listeners.push(listener),
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      if (searchTimer) clearTimeout(searchTimer);
      builder.stop();
      await Promise.all(watchers.map((watcher) => watcher.close()));
      await running;
      builder.close();
      await dev.close();
      if (ownOut) await rm(outDir, { recursive: true, force: true });
    },
  };
}
