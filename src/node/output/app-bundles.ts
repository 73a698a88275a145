/**
 * The app's bundles — the reader app with its search worker and boot script, the renderer the build
 * prerenders with, and the app's stylesheet — depend on `src/` and the installed packages, never on the
 * content. They are made once for each state of those, kept in `node_modules/.cache/docs-app/<digest>/`
 * beside the project, and read back by every build, `npm run dev` and `npm run compile` after it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { contentHash, sourceDigest } from '../content-hash';
import { bundleAppCss, bundleClient, bundlePrerender, type ClientAssets } from './bundle';
import { loadRenderer } from './prerender-bundle';
import type { RenderRoute } from './render-document';

export interface Prerender {
  renderRoute: RenderRoute;
  /** The bundle's file, which a prerender thread loads too (prerender-threads.ts). */
  file: string;
  /** The bundle's content hash: documents rendered by the same bundle from the same data are the same. */
  version: string;
}

export interface AppBundles {
  client: ClientAssets;
  prerender: Prerender;
  /** The app's stylesheet, before the code colours of the content are added (`siteCss`). */
  appCss: string;
}

/** Where the bundles are kept, relative to the project (the folder that holds `src/`). */
const APP_DIR = 'node_modules/.cache/docs-app';
/** Bumped when what a bundle folder holds changes shape. */
const FORMAT = 'app-bundles 1';
/** The record of a complete bundle folder, written last: a folder without it is not used. */
const RECORD = 'bundles.json';
/** Bundle folders kept for other states of `src/` (another branch, an edit undone), newest first. */
const KEPT = 3;

interface BundleRecord {
  format: string;
  client: Omit<ClientAssets, 'files'> & { files: string[] };
  prerenderVersion: string;
}

/** The app's bundles for `srcDir` as it is now: read from the cache folder, or made and kept there. */
export async function appBundles(srcDir: string): Promise<AppBundles> {
  const { folder, record } = await bundled(srcDir);
  return load(folder, record);
}

/** Makes the app's bundles for `srcDir` unless they are kept already; returns whether it made them. */
export async function makeAppBundles(srcDir: string): Promise<boolean> {
  return (await bundled(srcDir)).made;
}

async function bundled(srcDir: string): Promise<{ folder: string; record: BundleRecord; made: boolean }> {
  const dir = path.join(srcDir, '..', APP_DIR);
  const folder = path.join(dir, appDigest(srcDir));
  const kept = await readRecord(folder);
  if (kept) return { folder, record: kept, made: false };
  // Builds in one process (the tests, `npm run dev`) wait for the one making the folder.
  let making = inProcess.get(folder);
  if (!making) {
    making = make(srcDir, folder).finally(() => inProcess.delete(folder));
    inProcess.set(folder, making);
    const record = await making;
    await pruneOthers(dir, folder);
    return { folder, record, made: true };
  }
  return { folder, record: await making, made: false };
}

const inProcess = new Map<string, Promise<BundleRecord>>();

/**
 * What the bundles are made from: every file of `src/client` and `src/shared` (the boundary check keeps
 * the app's own code there), the code that bundles them, the locked package versions, and the one
 * environment switch that changes the output. Contents, not times: a checkout that touches files without
 * changing them keeps the bundles.
 */
function appDigest(srcDir: string): string {
  const sources = ['client', 'shared', 'node/output/bundle.ts', 'node/output/app-bundles.ts', '../package-lock.json'];
  const preamble = `${FORMAT}\0debug=${process.env['DOCS_DEBUG_BUNDLE'] ? 1 : 0}`;
  return sourceDigest(srcDir, sources, preamble).slice(0, 16);
}

async function readRecord(folder: string): Promise<BundleRecord | undefined> {
  try {
    const record = JSON.parse(await readFile(path.join(folder, RECORD), 'utf8')) as BundleRecord;
    return record.format === FORMAT ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Bundles into a folder of this process's own and renames it into place, so a build that starts meanwhile
 * sees the whole folder or none. When another process got there first, its folder is as good as ours.
 */
async function make(srcDir: string, folder: string): Promise<BundleRecord> {
  const partial = `${folder}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  await mkdir(path.join(partial, 'client'), { recursive: true });
  try {
    const [client, appCss] = await Promise.all([
      bundleClient(srcDir),
      bundleAppCss(srcDir),
      bundlePrerender(srcDir, path.join(partial, 'prerender.cjs')),
    ]);
    await Promise.all([
      ...[...client.files].map(([name, data]) => writeFile(path.join(partial, 'client', name), data)),
      writeFile(path.join(partial, 'app.css'), appCss),
    ]);
    const record: BundleRecord = {
      format: FORMAT,
      client: { ...client, files: [...client.files.keys()] },
      prerenderVersion: contentHash(await readFile(path.join(partial, 'prerender.cjs'))),
    };
    await writeFile(path.join(partial, RECORD), JSON.stringify(record));
    try {
      await rename(partial, folder);
    } catch (error) {
      const made = await readRecord(folder);
      if (!made) throw error;
      await rm(partial, { recursive: true, force: true });
      return made;
    }
    return record;
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

async function load(folder: string, record: BundleRecord): Promise<AppBundles> {
  const { files: names, ...client } = record.client;
  const [files, appCss] = await Promise.all([
    Promise.all(names.map(async (name) => [name, await readFile(path.join(folder, 'client', name))] as const)),
    readFile(path.join(folder, 'app.css'), 'utf8'),
  ]);
  const file = path.join(folder, 'prerender.cjs');
  return {
    client: { ...client, files: new Map(files.map(([name, data]) => [name, new Uint8Array(data)])) },
    prerender: { renderRoute: loadRenderer(file), file, version: record.prerenderVersion },
    appCss,
  };
}

/** Removes all but the newest few complete bundle folders, and partial ones no process is writing. */
async function pruneOthers(dir: string, current: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const folders = await Promise.all(
    names
      .map((name) => path.join(dir, name))
      .filter((folder) => folder !== current)
      .map(async (folder) => ({ folder, at: (await stat(folder).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  const complete = folders.filter(({ folder }) => !folder.endsWith('.partial')).sort((a, b) => b.at - a.at);
  const stale = [
    ...complete.slice(KEPT - 1),
    ...folders.filter(({ folder }) => folder.endsWith('.partial') && !isRunning(folder)),
  ];
  await Promise.all(stale.map(({ folder }) => rm(folder, { recursive: true, force: true })));
}

/** Whether the process that names a partial folder (`<digest>.<pid>.<random>.partial`) is still running. */
function isRunning(partial: string): boolean {
  const pid = Number(path.basename(partial).split('.')[1]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
