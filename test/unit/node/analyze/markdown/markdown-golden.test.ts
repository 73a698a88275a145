import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPage } from '../../../../../src/node/analyze/page-source';
import { toPageMeta } from '../../../../../src/node/analyze/page-record';
import { keyFromRoute } from '../../../../../src/shared/paths';
import { TextStore } from '../../../../../src/node/analyze/text-store';
import { DiagnosticList, formatDiagnostic } from '../../../../../src/node/diagnostics';
import { CodeHighlighter } from '../../../../../src/node/highlight/code-highlighter';
import { projectRoot } from '../../../../helpers/tree';
import { heldSearch } from '../../../../../src/node/analyze/stored-search';

/**
 * Golden files for the markdown pipeline: each `test/fixtures/markdown/x.md` has `x.html` (the fragment),
 * `x.json` (the page record and search terms) and `x.diagnostics.txt`. Run with UPDATE_GOLDEN=1
 * to write them for a new fixture or rewrite them after an intended change, then review the diff. Without
 * it a missing golden file fails the test: a file written on the spot would pass whatever the output is.
 */
const dir = path.join(projectRoot, 'test/fixtures/markdown');
const update = process.env['UPDATE_GOLDEN'] === '1';
const constants = { HTTP_PAYLOAD_LIMIT: '512KB', DEFAULT_MEMORY: '256MB' };

let highlighter: CodeHighlighter;
/** The fixtures are far below the store's memory budget: it never writes its file. */
const texts = new TextStore(mkdtempSync(path.join(os.tmpdir(), 'golden-')));
afterAll(() => texts.close());
beforeAll(async () => {
  highlighter = await CodeHighlighter.create();
});

/** How to write or rewrite the golden files on purpose, for the messages of a missing or different one. */
const UPDATE_COMMAND =
  'UPDATE_GOLDEN=1 npx vitest run --project unit test/unit/node/analyze/markdown/markdown-golden.test.ts';

function golden(file: string, actual: string): void {
  const target = path.join(dir, file);
  const shown = path.relative(projectRoot, target);
  if (update) writeFileSync(target, actual);
  else if (!existsSync(target)) {
    throw new Error(`golden file ${shown} is missing: write it with \`${UPDATE_COMMAND}\`, then review it`);
  }
  expect(actual, `${shown} (after an intended change: \`${UPDATE_COMMAND}\`, then review the diff)`).toBe(
    readFileSync(target, 'utf8'),
  );
}

describe('markdown pipeline golden files', () => {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
    it(name, async () => {
      const diagnostics = new DiagnosticList();
      const page = await loadPage(
        { absolutePath: path.join(dir, name), relativePath: `guide/${name}` },
        { base: '/docs/', constants, highlighter, texts, search: heldSearch, strict: true, diagnostics },
      );
      const stem = name.replace(/\.md$/, '');
      golden(`${stem}.diagnostics.txt`, diagnostics.sorted().map(formatDiagnostic).join('\n') + '\n');
      if (!page) return;
      golden(`${stem}.html`, page.html.read());
      const record = {
        meta: toPageMeta({ ...page, key: keyFromRoute(page.route) }, '/docs/'),
        search: page.search.read(),
        links: page.analysis.links,
      };
      golden(`${stem}.json`, `${JSON.stringify(record, null, 2)}\n`);
    });
  }
});
