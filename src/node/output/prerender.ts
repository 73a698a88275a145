import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contentHash } from '../content-hash';
import { bundlePrerender } from './bundle';
import type { RenderRoute } from './write-site';

export interface Prerender {
  renderRoute: RenderRoute;
  /** The bundle's content hash: documents rendered by the same bundle from the same data are the same. */
  version: string;
}

/**
 * Bundles the app's renderer (the same components the browser hydrates) and loads it into this process.
 * The bundle is self-contained, so it is written to a folder of its own, loaded, and removed.
 */
export async function loadPrerender(srcDir: string): Promise<Prerender> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-prerender-'));
  try {
    const file = path.join(dir, 'prerender.cjs');
    await bundlePrerender(srcDir, file);
    const { renderRoute } = createRequire(file)(file) as { renderRoute?: RenderRoute };
    if (!renderRoute) throw new Error('the prerender bundle does not export renderRoute');
    return { renderRoute, version: contentHash(await readFile(file)) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
