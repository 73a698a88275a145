import { describe, expect, it } from 'vitest';
import { inlineWork, MAX_BLOCK, MAX_NESTING, pageShape } from '../../../../../src/node/analyze/markdown/page-bounds';

/** A list nested `levels` deep, one item per level, each indented two more columns. */
const nestedList = (levels: number) =>
  Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n') + '\n';

describe('the shape of a page', () => {
  it('passes the nesting pages really have, and a list nested to the limit', () => {
    const page = '# Guide\n\n> A quote\n> - with a list\n>   - nested\n\n1. one\n   - two\n     > three\n';
    expect(pageShape(page).problem).toBeUndefined();
    expect(pageShape(page).depth).toBe(3);
    expect(pageShape(nestedList(MAX_NESTING)).problem).toBeUndefined();
  });

  it('points at the first line nested past the limit', () => {
    const quotes = pageShape(`# Deep\n\nText.\n\n${'>'.repeat(10_000)} deep\n`);
    expect(quotes.problem?.offset).toBe('# Deep\n\nText.\n\n'.length);
    expect(quotes.problem?.message).toMatch(/^lists and quotes are nested 10000 levels deep here; a page may nest 100/);
    const list = nestedList(MAX_NESTING + 1);
    expect(pageShape(list).problem?.offset).toBe(list.lastIndexOf('\n', list.length - 2) + 1);
    expect(pageShape(`${'- '.repeat(10_000)}a\n`).problem?.message).toMatch(/nested 10000 levels/);
  });

  it('counts code in a fence at the fence, however the code is indented', () => {
    const json = `${' '.repeat(400)}"deep": true`;
    const page = `- item\n\n  \`\`\`json\n${json}\n${json}\n  \`\`\`\n\n${' '.repeat(6)}after\n`;
    const shape = pageShape(page);
    expect(shape.problem).toBeUndefined();
    // The line after the fence is three levels deep again by its own indentation.
    expect(shape.depth).toBe(3);
  });

  it('does not take a thematic break of many dashes or stars for nested lists', () => {
    expect(pageShape(`Text.\n\n${'- '.repeat(500)}\n\n${'* '.repeat(500)}\n`).problem).toBeUndefined();
  });

  it('refuses much text nested deep, which the parser reads again at every level', () => {
    const filler = `${' '.repeat(196)}text text text text text\n`.repeat(8_000);
    const shape = pageShape(`${nestedList(99)}${filler}`);
    expect(shape.problem?.message).toMatch(/^too much text nested in lists and quotes \(99 levels deep here\)/);
  });

  it('refuses a block of lines without a blank line past the block limit, at its first line', () => {
    const line = 'word '.repeat(20) + '\n';
    const block = line.repeat(Math.ceil(MAX_BLOCK / line.length) + 1);
    const shape = pageShape(`# Big\n\nShort paragraph.\n\n${block}`);
    expect(shape.problem?.offset).toBe('# Big\n\nShort paragraph.\n\n'.length);
    expect(shape.problem?.message).toMatch(/^this block of 2\.0 MB has no blank line; blocks are limited to 2\.0 MB/);
  });
});

describe('the inline work of a text', () => {
  it('is small for prose with emphasis, however long the prose', () => {
    const sentence = 'A workflow runs its **steps** in order and passes _each_ result to the ~~old~~ next step. ';
    expect(inlineWork(sentence)).toBeLessThan(200);
    // Linear: each emphasis closes a few characters on.
    expect(inlineWork(sentence.repeat(1000))).toBeLessThan(1000 * 200);
  });

  it('grows with the square of a word made of markers and of nested emphasis', () => {
    const ratio = (make: (n: number) => string) => inlineWork(make(2000)) / inlineWork(make(1000));
    expect(ratio((n) => '**a'.repeat(n))).toBeGreaterThan(3.5);
    expect(ratio((n) => '_a'.repeat(n))).toBeGreaterThan(3.5);
    expect(ratio((n) => `${'*a '.repeat(n)}b${' c*'.repeat(n)}`)).toBeGreaterThan(3.5);
  });

  it('grows only linearly with openers that nothing after them could close', () => {
    // marked skips these at once: no run of their marker after them follows a non-space.
    expect(inlineWork('*x '.repeat(2000)) / inlineWork('*x '.repeat(1000))).toBeLessThan(2.1);
  });
});
