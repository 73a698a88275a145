import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { copyFolder, copyTree } from '../../bench/copy-tree';
import { build } from '../../src/node/build';
import { DiagnosticList, formatDiagnostic } from '../../src/node/diagnostics';
import { readSite } from '../../src/node/site-stages';
import { shardCount, shardOf } from '../../src/shared/site-data';
import { ensureChromium } from '../e2e/chromium';
import { startPreview } from '../e2e/preview';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A page that only this tree has, whose record lives in the last route shard. */
    lastShardPage: { route: string; title: string; word: string; shard: number; shards: number };
  }
}

const root = path.resolve(__dirname, '../..');
export const SCALE_PAGES = 10_000;

/**
 * Builds a 10,000-page tree of real pages (content/ and its copies, bench/copy-tree.ts) once for the
 * scale tests, with one page of its own whose route falls in the last route shard, and serves it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromiumPath = ensureChromium();
  const work = await mkdtemp(path.join(tmpdir(), 'docs-scale-'));
  const contentDir = path.join(work, 'content');
  await copyTree(contentDir, SCALE_PAGES - 1);
  // Its pages as the build counts them: the copies' files, and the pages each copy's API reference makes.
  const scanned = await readSite(contentDir, new DiagnosticList(), {
    srcDir: path.join(root, 'src'),
    cacheDir: path.join(work, 'scan-cache'),
  });
  const pages = (scanned?.files.length ?? 0) + 1;
  const shards = shardCount(pages);
  const folder = copyFolder(1);
  let n = 0;
  while (shardOf(`/${folder}/unique-${n}/`, shards) !== shards - 1) n++;
  const word = 'Quillwort';
  const lastShardPage = {
    route: `/${folder}/unique-${n}/`,
    title: `${word} retention`,
    word,
    shard: shards - 1,
    shards,
  };
  await writeFile(
    path.join(contentDir, folder, `unique-${n}.md`),
    `# ${lastShardPage.title}\n\nHow long a ${word.toLowerCase()} run keeps its logs.\n`,
  );
  const result = await build({
    contentDir,
    manifestDir: path.join(work, 'manifest'),
    outDir: path.join(work, 'dist'),
    strict: true,
    cacheDir: path.join(root, 'node_modules/.cache/docs-build'),
    srcDir: path.join(root, 'src'),
    // The project's cache: a build of the project's own (or another test run's) may be using it.
    waitForLock: true,
  });
  if (!result.ok)
    throw new Error(`the scale tree does not build:\n${result.diagnostics.map(formatDiagnostic).join('\n')}`);
  if (result.pages !== pages) throw new Error(`the scale tree built ${result.pages} pages, not ${pages}`);
  const { url, stop } = await startPreview(path.join(work, 'dist'));
  project.provide('chromiumPath', chromiumPath);
  project.provide('distDir', path.join(work, 'dist'));
  project.provide('servers', [{ name: 'preview', url }]);
  project.provide('lastShardPage', lastShardPage);
  return async () => {
    await stop();
    await rm(work, { recursive: true, force: true });
  };
}
