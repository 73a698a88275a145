import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DevBuilder } from './builder';
import { bundleLiveClient } from './live-client';
import { startOlderVersions, watchOlderVersions } from './older-versions';
import { type RebuildListener, type RebuildTiming, startRebuildQueue } from './rebuild-queue';
import { rebuildReport } from './rebuild-report';
import { createDevServer, DEV_SCRIPT_PATH, type DevServer } from './server';
import { watchFolder } from './watch-folder';

export interface DevSessionOptions extends RebuildTiming {
  contentDir: string;
  srcDir: string;
  /** The highlight cache, kept between rebuilds. */
  cacheDir: string;
  /** The dev output; a fresh temporary folder (removed by close) when not given. */
  outDir?: string;
  port?: number;
  host?: string;
  strict?: boolean;
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
  onRebuild(listener: RebuildListener): void;
  close(): Promise<void>;
}

/**
 * `npm run dev`: one full build into the dev output, then the dev server and two watchers. A change under
 * the content folder re-renders only what changed; a change under src/ rebundles and reloads the tabs
 * (rebuild-queue.ts).
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
  const listeners: RebuildListener[] = [];

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
      if (previewed) tell.showEarly(previewed, pathname);
    },
    ...(older && { olderVersions: older }),
  });
  const tell = rebuildReport(dev, base, log);
  const queue = startRebuildQueue(options, {
    builder,
    dev,
    tell,
    log,
    listeners,
    rebundleLiveClient: async () => {
      liveScript = await bundleLiveClient(options.srcDir);
    },
  });
  await new Promise<void>((resolve, reject) => {
    dev.server.once('error', reject);
    dev.server.listen(options.port ?? 5173, options.host ?? '127.0.0.1', () => resolve());
  });

  const contentWatcher = watchFolder(options.contentDir, (name) => queue.contentChanged(name));
  const srcWatcher = watchFolder(options.srcDir, (file) => {
    if (file.startsWith('node/')) {
      log(`src/${file} changed: the build code is loaded once, restart "npm run dev" to use it`);
      return;
    }
    queue.sourceChanged();
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
    built: queue.built,
    onRebuild: (listener) => void listeners.push(listener),
    close: async () => {
      queue.stop();
      builder.stop();
      await Promise.all(watchers.map((watcher) => watcher.close()));
      await queue.idle();
      builder.close();
      await dev.close();
      if (ownOut) await rm(outDir, { recursive: true, force: true });
    },
  };
}
