import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../../../src/node/analyze/frontmatter';
import { DiagnosticList, formatDiagnostic } from '../../../../src/node/diagnostics';
import { ALIAS_BOMB } from '../../../helpers/alias-bomb';

function split(text: string) {
  const diagnostics = new DiagnosticList();
  const result = splitFrontmatter(text, 'guide/page.md', diagnostics);
  return { ...result, messages: diagnostics.sorted().map(formatDiagnostic) };
}

describe('frontmatter', () => {
  it('names the page and the first alias of an alias bomb', () => {
    const { messages, frontmatter, body } = split(`---\ntitle: A\n${ALIAS_BOMB}\n---\n# A\n`);
    expect(messages).toEqual([
      'guide/page.md:4:8 YAML aliases (*name) here expand to too many values: write the values out',
    ]);
    expect(frontmatter).toEqual({});
    expect(body).toBe('# A\n');
  });

  it('keeps a few aliases, which are ordinary YAML', () => {
    const { messages, frontmatter } = split('---\ntitle: &t A\ndescription: *t\n---\n# A\n');
    expect(messages).toEqual([]);
    expect(frontmatter).toEqual({ title: 'A', description: 'A' });
  });

  it('reports a key of the wrong type at its line', () => {
    expect(split('---\ndescription: x\ntitle: 42\n---\n').messages).toEqual([
      'guide/page.md:3:8 "title" Invalid input: expected string, received number',
    ]);
  });
});
