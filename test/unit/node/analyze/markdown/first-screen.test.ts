import { describe, expect, it } from 'vitest';
import { renderGuidePage } from '../../../../helpers/render-page';

/** For each code block and table of a page, in order, whether the build marked it as on the first screen. */
function marks(body: string): boolean[] {
  const { page } = renderGuidePage(body);
  const wrappers = page?.html.match(/<div class="(?:code-block|table-wrap)[^"]*"/g) ?? [];
  return wrappers.map((tag) => tag.includes(' first-screen"'));
}

const table = '| Limit | Value |\n|---|---|\n| Memory | 256MB |\n';
const code = (lines: number) =>
  '```js\n' + Array.from({ length: lines }, (_, i) => `call(${i});`).join('\n') + '\n```\n';
const paragraph = (words: number) => 'A sentence of words. '.repeat(words / 4).trim() + '\n';

describe('the code blocks and tables a page may show on its first screen', () => {
  it('marks those right under the title and not those pages below', () => {
    const body = ['# Limits', paragraph(40), table, code(3), ...Array(40).fill(paragraph(80)), table, code(3)];
    expect(marks(body.join('\n'))).toEqual([true, true, false, false]);
  });

  it('counts the lines of a long code block and the rows of a long table', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| row ${i} | ${i} |`).join('\n');
    expect(marks(['# Code', code(80), code(3)].join('\n'))).toEqual([true, false]);
    expect(marks(['# Table', `${table}${rows}\n`, code(3)].join('\n'))).toEqual([true, false]);
  });

  it('counts no height for what may be folded: a block after a long details section is still marked', () => {
    const folded = ['::: details Every option', ...Array(60).fill(paragraph(80)), code(3), ':::'].join('\n');
    expect(marks(['# Options', folded, table].join('\n'))).toEqual([false, true]);
  });

  it('marks a block that follows many short lines only while they may fit a tall window', () => {
    const items = (count: number) => Array.from({ length: count }, (_, i) => `- item ${i}`).join('\n') + '\n';
    expect(marks(['# List', items(20), table].join('\n'))).toEqual([true]);
    expect(marks(['# List', items(80), table].join('\n'))).toEqual([false]);
  });
});
