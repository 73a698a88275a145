import path from 'node:path';
import { FolderUpdate } from './folder-update';
import { writeDist, writeManifestFolder, type DistInput } from './write-site';

export interface PublishTargets {
  manifestDir: string;
  outDir: string;
  /** Where each output's ledger is kept (output-ledger.ts). */
  cacheDir: string;
  /** Folders of both outputs that other sites built with this one own (its versions'): left as they are. */
  nested?: readonly string[];
  /** Given, the written updates wait in it to be committed with other sites' (`HeldUpdates`). */
  held?: HeldUpdates;
  /** The redirect lines of the nested sites, written into this one's tables (`SiteInput.nestedRedirects`). */
  nestedRedirects?: readonly string[];
}

/**
 * Output updates written and not yet committed: the versions of a site are built one after the other and
 * published together, all of them or none, once every one has been built without an error.
 */
export class HeldUpdates {
  private readonly updates: FolderUpdate[] = [];

  hold(...updates: FolderUpdate[]): void {
    this.updates.push(...updates);
  }

  /** Commits them in the order they were held: a version's folders before those of the site around them. */
  async commit(): Promise<void> {
    for (const update of this.updates.splice(0)) await update.commit();
  }

  async rollback(): Promise<void> {
    await Promise.all(this.updates.splice(0).map((update) => update.rollback()));
  }

  /**
   * The file that holds the held bytes of the output file `file` (absolute) until commit (`FolderUpdate.fileOf`),
   * by the innermost held folder it is in; `file` itself when no held update has it.
   */
  fileOf(file: string): string {
    const holding = this.updates
      .filter((update) => file.startsWith(update.root + path.sep))
      .sort((a, b) => b.root.length - a.root.length)[0];
    return holding ? holding.fileOf(path.relative(holding.root, file)) : file;
  }
}

/** The updates of a site's two output folders, opened before its output is made: it reads back what they hold. */
export interface SiteFolders {
  manifest: FolderUpdate;
  dist: FolderUpdate;
}

/** Opens the updates of `manifest/` and `dist/`, each with its ledger; nothing is written until `publishSite`. */
export async function openSiteFolders(targets: PublishTargets): Promise<SiteFolders> {
  const [manifest, dist] = await Promise.all([
    FolderUpdate.open(targets.manifestDir, targets.cacheDir, targets.nested),
    FolderUpdate.open(targets.outDir, targets.cacheDir, targets.nested),
  ]);
  return { manifest, dist };
}

/**
 * Brings `manifest/` and `dist/` up to date in place, both or neither (folder-update.ts): a failed write
 * leaves the previous build as it was, and a file unchanged since the previous build is not touched. A
 * build killed at any moment leaves `dist/` a site that works, and the next build makes both whole.
 */
export async function publishSite(targets: PublishTargets, folders: SiteFolders, input: DistInput): Promise<void> {
  const { manifest: manifestFolder, dist: distFolder } = folders;
  // dist/ first: what readers are served is never older than manifest/ says.
  const updates = [distFolder, manifestFolder];
  try {
    const nestedRedirects = targets.nestedRedirects ?? [];
    const dist = writeDist(distFolder.root, { ...input, nestedRedirects }, distFolder);
    // Each to its end even when the other fails, so nothing is still being written when the updates are
    // rolled back; manifest/'s search shards are links to the files dist/ wrote (or kept), made once
    // dist/ is written: to its bytes, not its place, where a damaged file waits to be replaced.
    const beside = { written: dist, fileOf: (relative: string) => distFolder.fileOf(relative) };
    const written = await Promise.allSettled([
      dist,
      writeManifestFolder(manifestFolder.root, input, manifestFolder, beside),
    ]);
    for (const result of written) if (result.status === 'rejected') throw result.reason;
  } catch (error) {
    await Promise.all(updates.map((update) => update.rollback()));
    throw error;
  }
  if (targets.held) targets.held.hold(...updates);
  else for (const update of updates) await update.commit();
}
