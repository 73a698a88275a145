import path from 'node:path';
import { analyzePages } from '../../src/node/analyze/analyze-pages';
import type { BuildHighlighting } from '../../src/node/analyze/markdown/code-blocks';
import { TextStore } from '../../src/node/analyze/text-store';
import { DiagnosticList } from '../../src/node/diagnostics';
import { scanContent } from '../../src/node/scan/scan';
import { heldSearch } from '../../src/node/analyze/stored-search';

/**
 * The page pass over the content folder of a tree made by `makeTree`, as the build runs it with the base
 * `/docs/`: the pages it made, with their code keys, its problems and the text store it filled.
 */
export async function pagePass<Store extends TextStore = TextStore>(
  root: string,
  highlighter: BuildHighlighting,
  options: { threads?: number; texts?: Store } = {},
) {
  const diagnostics = new DiagnosticList();
  const files = await scanContent(path.join(root, 'content'), diagnostics);
  const texts = options.texts ?? new TextStore(path.join(root, 'cache'));
  const made = await analyzePages(files, {
    settings: { base: '/docs/', constants: {}, strict: true },
    highlighter,
    texts,
    search: heldSearch,
    diagnostics,
    threads: options.threads ?? 0,
  });
  return { diagnostics, texts, made };
}
