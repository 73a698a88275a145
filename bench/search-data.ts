/**
 * The search data of a content tree from the build's own render stages (scan, render, assemble, search
 * index), without bundling or prerendering. Only used when a full build was stopped at the bench's time
 * cap, so the search figures of a large tree are still measured; the bench labels them as such.
 *
 *   node --import tsx bench/search-data.ts <content dir> <cache dir> <out file>
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderPages, startHighlighting } from '../src/node/content/render-pages';
import { scanContent } from '../src/node/content/scan';
import { loadSiteConfig } from '../src/node/content/site-config';
import { DiagnosticList } from '../src/node/diagnostics';
import { HighlightCache } from '../src/node/highlight/cache';
import { assembleSite } from '../src/node/site/assemble';
import { buildSearchData } from '../src/node/site/search-index';
import { projectRoot } from './builds';

async function main(contentDir: string, cacheDir: string, outFile: string): Promise<void> {
  const diagnostics = new DiagnosticList();
  const config = await loadSiteConfig(contentDir, diagnostics);
  const files = await scanContent(contentDir, diagnostics);
  const highlighting = await startHighlighting(files.length, {
    cache: await HighlightCache.load(path.join(cacheDir, 'highlight.json')),
    srcDir: path.join(projectRoot, 'src'),
  });
  const { pages: loaded, highlighted } = await renderPages(files, highlighting, {
    settings: { base: config.base, constants: config.constants, strict: true },
    diagnostics,
  });
  await highlighted;
  const assembled = assembleSite(loaded, config, '', true, diagnostics);
  if (diagnostics.errors.length > 0) throw new Error(`the tree has ${diagnostics.errors.length} errors`);
  await writeFile(outFile, JSON.stringify(buildSearchData(assembled.pages)));
}

const [contentDir, cacheDir, outFile] = process.argv.slice(2);
if (!contentDir || !cacheDir || !outFile) {
  console.error('usage: bench/search-data.ts <content dir> <cache dir> <out file>');
  process.exit(2);
}
main(contentDir, cacheDir, outFile).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : error);
    process.exit(1);
  },
);
