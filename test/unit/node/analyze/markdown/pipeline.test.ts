import { describe, expect, it } from 'vitest';
import { renderGuidePage } from '../../../../helpers/render-page';

const MB = 1024 * 1024;
/** The page sits under a frontmatter block of this many lines: reported lines must add it. */
const LINE_OFFSET = 3;

/** Renders a page body as the build does (code left as it is) and times it. */
function render(body: string) {
  const started = performance.now();
  const rendered = renderGuidePage(body, { lineOffset: LINE_OFFSET });
  return { ...rendered, seconds: (performance.now() - started) / 1000 };
}

/** `unit` repeated to `size` characters. */
const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/**
 * Pages built to make the markdown parser work for hours or overflow its stack. Each must be refused with
 * its file and line, promptly: the bounds are an order of magnitude above what the refusals take.
 */
describe("renderMarkdown given a page past the parser's limits", () => {
  it('refuses 10,000 ">" or list markers on one line, where marked overflowed its stack', () => {
    for (const line of ['>'.repeat(10_000) + ' deep', '- '.repeat(10_000) + 'deep', '1. '.repeat(5_000) + 'deep']) {
      const { page, messages } = render(`# Deep\n\nText.\n\n${line}\n`);
      expect(page).toBeUndefined();
      expect(messages).toEqual([
        expect.stringMatching(
          /^guide\/page\.md:8:1 lists and quotes are nested \d+ levels deep here; a page may nest 100 /,
        ),
      ]);
    }
  });

  it('refuses a list indented 2,000 levels (4 MB), which took minutes and gigabytes', () => {
    const body = Array.from({ length: 2_000 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
    const { page, messages, seconds } = render(`# Deep\n\n${body}\n`);
    expect(page).toBeUndefined();
    // Level 100 is the first past the limit: the 101st item, on line 2 + 101 of the body.
    expect(messages).toEqual([
      expect.stringMatching(/^guide\/page\.md:106:1 lists and quotes are nested 101 levels deep here/),
    ]);
    expect(seconds).toBeLessThan(20);
  });

  it('refuses a paragraph of "**a" repeated (1 MB), which grew with the square of its length', () => {
    const { page, messages, seconds } = render(`# Stars\n\nFine text.\n\n${fill('**a', MB)}\n`);
    expect(page).toBeUndefined();
    expect(messages).toEqual([
      expect.stringMatching(
        /^guide\/page\.md:8:1 too many emphasis markers \(\* _ ~\) in long words or nested emphasis/,
      ),
    ]);
    expect(seconds).toBeLessThan(20);
  });

  it('refuses 8 MB of short paragraphs of "_a" repeated, each cheap, all of them not', () => {
    const paragraph = `${fill('_a', 300)}\n\n`;
    const { page, messages, seconds } = render(
      `# Under\n\n${paragraph.repeat(Math.floor((8 * MB) / paragraph.length))}`,
    );
    expect(page).toBeUndefined();
    expect(messages).toEqual([expect.stringMatching(/^guide\/page\.md:6:1 too many emphasis markers/)]);
    expect(seconds).toBeLessThan(20);
  });

  it('refuses an 8 MB paragraph, whose block rules overflowed the stack', () => {
    const { page, messages, seconds } = render(`# Big\n\n${fill('**a', 8 * MB)}\n`);
    expect(page).toBeUndefined();
    expect(messages).toEqual([
      'guide/page.md:6:1 this block of 8.0 MB has no blank line; blocks are limited to 2.0 MB: split it with blank lines',
    ]);
    expect(seconds).toBeLessThan(20);
  });

  it('refuses emphasis nested thousands deep', () => {
    const { page, messages } = render(`${'**a '.repeat(3_000)}b${' c**'.repeat(3_000)}\n`);
    expect(page).toBeUndefined();
    expect(messages).toEqual([expect.stringMatching(/^guide\/page\.md:4:1 too many emphasis markers/)]);
  });

  it('renders what pages really hold, up to the largest page: lists a few deep, emphasis in every sentence', () => {
    const sentence = 'A workflow runs its **steps** in order and passes _each_ result to the ~~old~~ next step. ';
    const section = (n: number) => `## Part ${n}\n\n${sentence.repeat(10)}\n\n- one\n  - two\n    > three *quoted*\n\n`;
    const count = Math.floor((8 * MB - 100) / section(99_999).length);
    const { page, messages, seconds } = render(
      `# Long\n\n${Array.from({ length: count }, (_, n) => section(n)).join('')}`,
    );
    expect(messages).toEqual([]);
    expect(page?.html).toContain(`id="part-${count - 1}"`);
    // A few seconds: each paragraph made marked search the rest of the page for our blocks, and each nested
    // list item was looked for in the rest of the page, which took this page minutes.
    expect(seconds).toBeLessThan(30);
  });

  it('renders a 2 MB word of code spans in bounded time', () => {
    const { page, messages, seconds } = render(`# Ticks\n\n${fill('a`', 2 * MB - 100)}\n`);
    expect(messages).toEqual([]);
    expect(page?.html).toContain('<code>');
    expect(seconds).toBeLessThan(20);
  });
});
