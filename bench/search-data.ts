/**
 * The search data of a content tree from the build's own render stages (scan, render, assemble, search
 * index), without bundling or prerendering. Only used when a full build was stopped at the bench's time
 * cap, so the search figures of a large tree are still measured; the bench labels them as such.
 *
 *   node --import tsx bench/search-data.ts <content dir> <out file>
 */
import { writeFile } from 'node:fs/promises';
import { pageRecord } from '../src/node/content/page-record';
import { renderPages } from '../src/node/content/render-pages';
import { scanContent } from '../src/node/content/scan';
import { readSiteConfig } from '../src/node/content/site-config';
import { DiagnosticList } from '../src/node/diagnostics';
import { CodeBlocks } from '../src/node/highlight/blocks';
import { assembleSite } from '../src/node/site/assemble';
import { buildSearchData } from '../src/node/site/search-index';

async function main(contentDir: string, outFile: string): Promise<void> {
  const diagnostics = new DiagnosticList();
  const { config, configText } = await readSiteConfig(contentDir, diagnostics);
  const files = await scanContent(contentDir, diagnostics);
  // The search text holds code as written: the blocks are collected and never highlighted.
  const blocks = new CodeBlocks();
  const drafts = await renderPages(files, {
    settings: { base: config.base, constants: config.constants, strict: true },
    highlighter: blocks,
    diagnostics,
  });
  blocks.close();
  const loaded = drafts.map((draft) => pageRecord(draft, draft.html));
  const assembled = assembleSite(loaded, config, configText, true, diagnostics);
  if (diagnostics.errors.length > 0) throw new Error(`the tree has ${diagnostics.errors.length} errors`);
  await writeFile(outFile, JSON.stringify(buildSearchData(assembled.pages)));
}

const [contentDir, outFile] = process.argv.slice(2);
if (!contentDir || !outFile) {
  console.error('usage: bench/search-data.ts <content dir> <out file>');
  process.exit(2);
}
main(contentDir, outFile).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : error);
    process.exit(1);
  },
);
