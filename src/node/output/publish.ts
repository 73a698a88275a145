import { commit, discard, stage } from './swap';
import { writeDist, writeManifestFolder, type DistInput } from './write-site';

export interface PublishTargets {
  manifestDir: string;
  outDir: string;
}

/**
 * Writes `manifest/` and `dist/` into staging folders and swaps both in, or neither: a failed write
 * leaves the previous build where it was.
 */
export async function publishSite(targets: PublishTargets, input: DistInput): Promise<void> {
  const folders = [await stage(targets.manifestDir), await stage(targets.outDir)];
  try {
    const [manifestFolder, distFolder] = folders;
    if (!manifestFolder || !distFolder) throw new Error('staging folders missing');
    // Each to its end even when the other fails, so nothing is still being written when the staging
    // folders are discarded.
    const written = await Promise.allSettled([
      writeManifestFolder(manifestFolder.staging, input.manifest, input.pages, input.search),
      writeDist(distFolder.staging, input),
    ]);
    for (const result of written) if (result.status === 'rejected') throw result.reason;
    await commit(folders);
  } catch (error) {
    await discard(folders);
    throw error;
  }
}
