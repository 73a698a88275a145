import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticList, formatDiagnostic } from '../../../../src/node/diagnostics';
import { renderMarkdown } from '../../../../src/node/markdown/pipeline';

/** Renders a page body of `guide/page.md` in a content folder as the build does (code left as it is). */
function render(body: string, contentDir = '/nonexistent') {
  const diagnostics = new DiagnosticList();
  const page = renderMarkdown(body, {
    file: 'guide/page.md',
    absoluteDir: path.join(contentDir, 'guide'),
    contentDir,
    route: '/guide/page/',
    base: '/docs/',
    lineOffset: 0,
    constants: {},
    highlighter: { highlight: (code) => code },
    strict: true,
    diagnostics,
  });
  return { page, messages: diagnostics.sorted().map(formatDiagnostic) };
}

describe('headings', () => {
  it('take the id written after them as {#id}, and keep it out of their text and the table of contents', () => {
    const { page, messages } = render('# Page\n\n## Get the current user {#getCurrentUser}\n\nText.\n');
    expect(messages).toEqual([]);
    expect(page?.html).toContain('<h2 id="getCurrentUser" tabindex="-1">');
    expect(page?.html).toContain('>Get the current user<a class="header-anchor" href="#getCurrentUser"');
    expect(page?.analysis.headers).toEqual([{ level: 2, title: 'Get the current user', slug: 'getCurrentUser' }]);
    expect(page?.analysis.anchors).toContain('getCurrentUser');
  });
});
