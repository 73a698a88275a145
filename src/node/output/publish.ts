import { FolderUpdate } from './folder-update';
import { writeDist, writeManifestFolder, type DistInput } from './write-site';

export interface PublishTargets {
  manifestDir: string;
  outDir: string;
  /** Where each output's ledger is kept (output-ledger.ts). */
  cacheDir: string;
}

/**
 * Brings `manifest/` and `dist/` up to date in place, both or neither (folder-update.ts): a failed write
 * leaves the previous build as it was, and a file unchanged since the previous build is not touched. A
 * build killed at any moment leaves `dist/` a site that works, and the next build makes both whole.
 */
export async function publishSite(targets: PublishTargets, input: DistInput): Promise<void> {
  const [manifestFolder, distFolder] = await Promise.all([
    FolderUpdate.open(targets.manifestDir, targets.cacheDir),
    FolderUpdate.open(targets.outDir, targets.cacheDir),
  ]);
  // dist/ first: what readers are served is never older than manifest/ says.
  const updates = [distFolder, manifestFolder];
  try {
    const dist = writeDist(distFolder.root, input, distFolder);
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
  for (const update of updates) await update.commit();
}
