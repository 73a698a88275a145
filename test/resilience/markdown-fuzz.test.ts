import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticList } from '../../src/node/diagnostics';
import { CodeHighlighter } from '../../src/node/highlight/code-highlighter';
import { renderMarkdown, type RenderedPage } from '../../src/node/analyze/markdown/pipeline';
import { htmlProblems } from './html-check';
import { SUMMARIES } from './summaries';

/**
 * Random markdown through renderMarkdown, the one pass the build runs for every page: documents built from a
 * grammar of what writers really write (headings, links in every internal form, code fences with line
 * ranges, containers, [[toc]], constants, tables, nested lists and quotes, raw HTML including scripts and
 * event handlers, unicode) and fully arbitrary strings. For every input the pass must return, never throw;
 * its HTML, read by a real HTML tokenizer (test/resilience/html-check.ts), must close every element it opens
 * in order and hold nothing that runs code or breaks the CSP, and on pages without raw HTML it must be a tree
 * a browser keeps exactly as written; every diagnostic must point inside the page. Unknown constants and bad
 * links are diagnostics, not exceptions. FUZZ_SEED=<n> replays a run; the seed is printed with any failure
 * and written with the run counts to test-results/markdown-fuzz-summary.json for the resilience report.
 */

/** Sized for well under 20 s on a shared 2-core machine, including the highlighter's start. */
const RUNS = { grammar: 800, markdownOnly: 700, markdownSoup: 800, unicode: 300, binary: 200 };
const SEED = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : Date.now() % 2 ** 31;

const CONSTANTS = { API_BASE: 'https://api.example.com/v1', LIMIT: '<10 MB & "more">', VERSION: '2.4.0' };
/** The page sits under a frontmatter block of this many lines, so diagnostics must add it. */
const LINE_OFFSET = 4;

let highlighter: CodeHighlighter;
let pageDir: string;

beforeAll(async () => {
  highlighter = await CodeHighlighter.create();
  // A real image next to the page, so `./diagram.png` takes the asset path and `./missing.png` the error.
  pageDir = path.join(await mkdtemp(path.join(tmpdir(), 'docs-fuzz-')), 'guide');
  await mkdir(pageDir, { recursive: true });
  await writeFile(path.join(pageDir, 'diagram.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
});

afterAll(async () => {
  if (pageDir) await rm(path.dirname(pageDir), { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------------
// The grammar
// ---------------------------------------------------------------------------------------------------------

const HOSTILE = [
  '<script>window.__pwned=1</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<style>body{display:none}</style>',
  '"><img src=x onerror="window.__pwned=1">',
  '<img src=x onerror=window.__pwned=1>',
  '<a href="javascript:window.__pwned=1">click</a>',
  '<a href="&#106;avascript:alert(1)">entity</a>',
  '<a href="java&#x09;script:alert(1)">tab</a>',
  '<a href="/x" onclick="alert(1)" style="color:red">styled</a>',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src=x.swf>',
  '<base href="//evil.example/">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
  '<video poster="javascript:alert(1)" src=x onerror=alert(1)></video>',
  '<picture><source srcset="javascript:alert(1) 1x"></picture>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<xmp><script>alert(1)</script></xmp>',
  '<template><script>alert(1)</script></template>',
  '<details open ontoggle=alert(1)><summary>s</summary>body</details>',
  '<input type=checkbox checked onfocus=alert(1) autofocus>',
  '<!-- <script>alert(1)</script> -->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<scr<script>ipt>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
];

const INLINE_HTML = [
  '<b>',
  '</b>',
  '<em>x</em>',
  '<span class="x" data-x="1">',
  '</span>',
  '<kbd>Ctrl</kbd>',
  '<br>',
  '</br>',
  '<div>',
  '</div>',
  '</p>',
  '<p>',
  '<li>',
  '<td>',
  '<tr>',
  '<table>',
  '<a href="/x/">',
  '</a>',
  '<h2>raw</h2>',
  '<ruby>x<rt>y</rt></ruby>',
  '<!--',
  '-->',
  '<details>',
  '<summary>',
];

const WORDS = [
  'workflow',
  'step',
  'API',
  'Rate Limit Exceeded',
  'café',
  'naïve',
  'مرحبا بالعالم',
  'עברית',
  '\u202Eevil\u202C',
  '\u200B',
  '🎉',
  '👩‍💻',
  '🇺🇸',
  'e\u0301',
  '中文字符',
  '&amp;',
  '&lt;b&gt;',
  '&#0;',
  '&bogus;',
  '\\*',
  '\\',
  '<',
  '>',
  '&',
  '"',
  "'",
  '|',
  '\uFFFD',
  '\u0000',
];

const LINK_TARGETS = [
  '/limits/',
  '/limits',
  '../limits/',
  './sibling/',
  'sibling/README.md',
  'other.md#section',
  '../api/index.md',
  '#section',
  '#',
  '/guide/page/#sec',
  '/no/such/page/',
  '/limits/#no-such-anchor',
  'https://example.com/a?b=1&c=2#d',
  '//evil.example/x',
  'mailto:team@example.com',
  'tel:+15551234',
  'ftp://example.com/f',
  'javascript:window.__pwned=1',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '&#106;avascript:alert(1)',
  '%6Aavascript:alert(1)',
  '<javascript:alert(1)>',
  '<java\tscript:alert(1)>',
  '</with spaces/>',
  '/limits/#"onmouseover="alert(1)',
  "/a'b/",
  '/ünïcode/ページ/',
  '%E0%A4%A',
  '/%zz/',
  '?query=only',
  '',
];

const LANGUAGES = ['', 'javascript', 'js', 'ts', 'python', 'bash', 'shell', 'json', 'yaml', 'html', 'diff', 'text'];
const LINE_RANGES = ['', ' {1,3-4}', '{2}', ' {}', ' {3-1}', ' {a-b}', ' {1-100000}', ' {1,,2}', ' title="x"'];

const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

/** Random printable text; without raw HTML its `<` is escaped, so it stays text instead of opening a tag. */
const garbage = (maxLength: number, rawHtml: boolean) =>
  fc.string({ maxLength }).map((s) => (rawHtml ? s : s.replace(/</g, '\\<')));

const constant = fc.oneof(
  pick(['{{ API_BASE }}', '{{LIMIT}}', '{{ VERSION }}', '{{ UNKNOWN_NAME }}', '{{ limit }}', '{{ 1BAD }}', '{{ }}']),
  pick(['{{', '}}', '{{ API_BASE', '{{{ LIMIT }}}', '`{{ UNKNOWN_IN_CODE }}`']),
);

const IMAGE_SOURCES = [
  './diagram.png',
  'diagram.png',
  './diagram.png?v=2#x',
  '<./diagram.png>',
  './missing.png',
  '/absolute.png',
  // Each resolves to the page's own folder, or not at all.
  '',
  '#',
  '#a',
  '?q',
  '.',
  '..',
  './',
  '%E0%A4%A',
  'javascript:alert(1)',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'https://example.com/a.png',
];

const otherLinks = pick([
  '<https://example.com>',
  'www.example.com/path',
  '<javascript:alert(1)>',
  '<mailto:a@b.c>',
  'team@example.com',
  '[ref link][ref]',
  '[undefined ref][nowhere]',
  '[[not toc]]',
  '[unclosed](/limits/',
]);

const codeBody = fc
  .array(
    fc.oneof(
      pick(['const a = 1;', '{{ LIMIT }}', '</code></pre><script>alert(1)</script>', '```', '~~~', '\t', '']),
      fc.string({ maxLength: 30 }),
    ),
    { maxLength: 6 },
  )
  .map((l) => l.join('\n'));
const codeFence = fc
  .tuple(pick(['```', '~~~', '````']), pick(LANGUAGES), pick(LINE_RANGES), codeBody, fc.boolean())
  .map(([fence, lang, range, body, closed]) => `${fence}${lang}${range}\n${body}\n${closed ? fence : ''}`);
const indentedCode = codeBody.map((body) => body.replace(/^/gm, '    '));

const htmlBlock = fc.oneof(
  pick(HOSTILE),
  pick([
    '<div class="note">\n\nInside **markdown**.\n\n</div>',
    '<details>\n<summary>More</summary>\n\nHidden text.\n\n</details>',
    '<table><tr><td>cell</td></tr></table>',
    '<script>\nwindow.__pwned=1\n</script>',
    '<style>\nbody { display: none }\n</style>',
    '<!-- a comment\nover lines -->',
    '<p>unclosed paragraph',
    '</div>',
    '<pre>\n<b>pre</b>\n</pre>',
    '<div\nonclick="alert(1)">split tag</div>',
  ]),
);

const otherBlocks = pick([
  '[[toc]]',
  '[[TOC]]',
  '[[toc]] trailing',
  '---',
  '***',
  '- - -',
  '___',
  '[ref]: /limits/ "Limits"',
  '[ref]: javascript:alert(1)',
  '---\ntitle: x\n---',
]);

/**
 * Pages from the grammar; with `rawHtml` false the pieces of raw HTML are left out, so that most pages are
 * the renderer's output alone (a stray `<` in random text can still make one).
 */
function grammarPages(rawHtml: boolean): fc.Arbitrary<string> {
  const html = (weight: number, arbitrary: fc.Arbitrary<string>) => ({ weight: rawHtml ? weight : 0, arbitrary });
  const word = fc.oneof({ weight: 6, arbitrary: pick(WORDS) }, { weight: 1, arbitrary: garbage(12, rawHtml) });
  const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
  const titles = ['', ' "title"', " 'single'", ' (paren)', ...(rawHtml ? [' "a \\"quoted\\" <title>"'] : [])];
  const link = fc
    .tuple(words, pick(LINK_TARGETS), pick(titles))
    .map(([text, target, title]) => `[${text}](${target}${title})`);
  const image = fc.tuple(words, pick(IMAGE_SOURCES)).map(([alt, src]) => `![${alt}](${src})`);
  const emphasis = fc
    .tuple(pick(['*', '**', '_', '__', '~~', '`', '``', '***']), words, fc.boolean())
    .map(([mark, text, closed]) => `${mark}${text}${closed ? mark : ''}`);
  const inline: fc.Arbitrary<string> = fc.oneof(
    { weight: 5, arbitrary: words },
    { weight: 3, arbitrary: emphasis },
    { weight: 3, arbitrary: link },
    { weight: 1, arbitrary: image },
    { weight: 1, arbitrary: otherLinks },
    { weight: 2, arbitrary: constant },
    html(2, pick(INLINE_HTML)),
    html(2, pick(HOSTILE)),
  );
  const line = fc.array(inline, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '));
  const lines = fc.array(line, { minLength: 1, maxLength: 4 }).map((l) => l.join('\n'));
  const heading = fc
    .tuple(fc.integer({ min: 1, max: 7 }), line, fc.boolean())
    .map(([level, text, closed]) => `${'#'.repeat(level)} ${text}${closed ? ' ##' : ''}`);
  const setextHeading = fc.tuple(line, pick(['===', '---'])).map(([text, rule]) => `${text}\n${rule}`);
  const table = fc
    .tuple(fc.integer({ min: 1, max: 4 }), fc.array(fc.array(inline, { maxLength: 5 }), { maxLength: 4 }))
    .map(([columns, rows]) => {
      const header = `| ${Array.from({ length: columns }, (_, i) => `h${i}`).join(' | ')} |`;
      const align = `|${Array.from({ length: columns }, (_, i) => [':--', '--:', ':-:', '---'][i % 4]).join('|')}|`;
      const body = rows.map((cells) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
      return [header, align, ...body].join('\n');
    });
  const leafBlock: fc.Arbitrary<string> = fc.oneof(
    { weight: 5, arbitrary: lines },
    { weight: 3, arbitrary: heading },
    { weight: 1, arbitrary: setextHeading },
    { weight: 3, arbitrary: codeFence },
    { weight: 1, arbitrary: indentedCode },
    { weight: 2, arbitrary: table },
    html(2, htmlBlock),
    { weight: 2, arbitrary: otherBlocks },
    { weight: 1, arbitrary: garbage(40, rawHtml) },
  );

  // A container escapes its title, but one that does not open (`::: note`) leaves the line as text.
  const containerTitles = ['', ' Title', ` ${rawHtml ? '<b>x</b>' : '**x**'} {{ LIMIT }}`];

  /** Blocks that hold other blocks, nested up to `depth` levels. */
  function block(depth: number): fc.Arbitrary<string> {
    if (depth === 0) return leafBlock;
    const inner = fc.array(block(depth - 1), { minLength: 1, maxLength: 3 }).map((b) => b.join('\n\n'));
    const container = fc
      .tuple(pick(['tip', 'warning', 'danger', 'details', 'note', 'TIP']), pick(containerTitles))
      .chain(([kind, title]) =>
        fc.tuple(inner, fc.boolean()).map(([body, closed]) => `::: ${kind}${title}\n${body}\n${closed ? ':::' : ''}`),
      );
    const list = fc
      .tuple(
        pick(['- ', '* ', '+ ', '1. ', '3) ', '- [ ] ', '- [x] ']),
        fc.array(inner, { minLength: 1, maxLength: 3 }),
      )
      .map(([marker, items]) =>
        items.map((item) => marker + item.replace(/\n/g, `\n${' '.repeat(marker.length)}`)).join('\n'),
      );
    const quote = fc
      .tuple(pick(['> ', '>', '>> ']), inner)
      .map(([marker, body]) => body.replace(/^/gm, marker).replace(/^(>+) ?$/gm, '$1'));
    return fc.oneof(
      { weight: 4, arbitrary: leafBlock },
      { weight: 1, arbitrary: container },
      { weight: 1, arbitrary: list },
      { weight: 1, arbitrary: quote },
    );
  }

  // Blocks are separated by blank lines, or by a single newline, which lets them run into each other.
  const separated = fc.tuple(block(3), pick(['\n\n', '\n\n', '\n', '\n\n\n'])).map(([b, gap]) => b + gap);
  return fc
    .tuple(fc.array(separated, { minLength: 1, maxLength: 10 }), fc.boolean())
    .map(([blocks, crlf]) => (crlf ? blocks.join('').replace(/\n/g, '\r\n') : blocks.join('')));
}

/** Characters markdown and HTML give meaning to, in any order: the tokenizers' edge cases. */
const markdownSoup = fc.string({
  unit: pick([
    ...'<>`*_[](){}:|#-!"\'&;\\/=~+.\n \t',
    'a',
    'b',
    '1',
    '{{',
    '}}',
    ':::',
    '```',
    'script',
    'on',
    '\u00a0',
  ]),
  maxLength: 400,
});

// ---------------------------------------------------------------------------------------------------------
// The property
// ---------------------------------------------------------------------------------------------------------

interface RunRecord {
  name: string;
  runs: number;
  /** Pages without raw HTML, whose tree is checked against the HTML5 rules as well. */
  strictlyChecked: number;
  failed: boolean;
  seed: number;
  counterexample?: string;
  error?: string;
}

const records: RunRecord[] = [];
let diagnosticsSeen = 0;

function render(markdown: string): { page: RenderedPage; diagnostics: DiagnosticList } {
  const diagnostics = new DiagnosticList();
  const page = renderMarkdown(markdown, {
    file: 'guide/page.md',
    absoluteDir: pageDir,
    route: '/guide/page/',
    base: '/docs/',
    lineOffset: LINE_OFFSET,
    constants: CONSTANTS,
    highlighter,
    strict: true,
    diagnostics,
  });
  // Pages this size are far inside the parser's limits (page-bounds.ts): each must render.
  if (!page) throw new Error(`page refused: ${diagnostics.items.map((d) => d.message).join('; ')}`);
  return { page, diagnostics };
}

/**
 * Every way the pass can get a page wrong; empty when it is right. Tags must always balance and nothing may
 * run. The renderer's own markup must also be a tree a browser keeps as written; raw HTML passes through as
 * the writer wrote it (README), so a writer's `<div>` inside a paragraph is theirs to fix, not the build's.
 */
function pageProblems(markdown: string, counts: { strict: number }): string[] {
  const { page, diagnostics } = render(markdown);
  diagnosticsSeen += diagnostics.items.length;
  const html = htmlProblems(page.html);
  const problems = [...html.balance, ...html.safety];
  if (!page.analysis.hasRawHtml) {
    counts.strict++;
    problems.push(...html.restructuring);
  }
  const lastLine = markdown.replace(/\r\n?/g, '\n').split('\n').length + LINE_OFFSET;
  for (const d of diagnostics.items) {
    if (d.file !== 'guide/page.md' || d.line <= LINE_OFFSET || d.line > lastLine || d.column < 1) {
      problems.push(`diagnostic outside the page (lines ${LINE_OFFSET + 1}-${lastLine}): ${JSON.stringify(d)}`);
    }
  }
  return problems;
}

function fuzz(name: string, pages: fc.Arbitrary<string>, numRuns: number): void {
  const counts = { strict: 0 };
  const property = fc.property(pages, (markdown) => {
    const problems = pageProblems(markdown, counts);
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });
  const details = fc.check(property, { numRuns, seed: SEED });
  const record: RunRecord = {
    name,
    runs: details.numRuns,
    strictlyChecked: counts.strict,
    failed: details.failed,
    seed: details.seed,
  };
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  if (details.failed) {
    record.counterexample = JSON.stringify(details.counterexample?.[0]);
    record.error = error;
  }
  records.push(record);
  // fast-check's report holds the seed and the path that replay the shrunk counterexample; the error is ours.
  if (details.failed) throw new Error(`${fc.defaultReportMessage(details) ?? name}\n\nProblems:\n${error}`);
  expect(details.numRuns).toBe(numRuns);
}

afterAll(async () => {
  const summary = {
    date: new Date().toISOString(),
    seed: SEED,
    runs: records.reduce((n, r) => n + r.runs, 0),
    strictlyChecked: records.reduce((n, r) => n + r.strictlyChecked, 0),
    failures: records.filter((r) => r.failed).length,
    diagnostics: diagnosticsSeen,
    properties: records,
  };
  console.log(
    `markdown fuzz: ${summary.runs} pages (seed ${SEED}; ${summary.strictlyChecked} without raw HTML), ` +
      `${summary.failures} failing properties, ${summary.diagnostics} diagnostics reported`,
  );
  await mkdir(path.dirname(SUMMARIES.fuzz), { recursive: true });
  await writeFile(SUMMARIES.fuzz, `${JSON.stringify(summary, null, 2)}\n`);
});

describe('renderMarkdown given random markdown', () => {
  it('gives well-formed, safe HTML and in-page diagnostics for pages from a writer grammar', () => {
    fuzz('grammar', grammarPages(true), RUNS.grammar);
  });

  it('gives a tree a browser keeps as written when the page has no raw HTML', () => {
    fuzz('grammar without raw HTML', grammarPages(false), RUNS.markdownOnly);
  });

  it('survives any mix of markdown and HTML punctuation', () => {
    fuzz('markdown soup', markdownSoup, RUNS.markdownSoup);
  });

  it('survives arbitrary unicode text', () => {
    fuzz('unicode', fc.string({ unit: 'grapheme', maxLength: 300 }), RUNS.unicode);
  });

  it('survives arbitrary code points, control characters included', () => {
    fuzz('binary', fc.string({ unit: 'binary', maxLength: 300 }), RUNS.binary);
  });

  it('reports an unknown constant and records a broken link where they are, without throwing', () => {
    const { page, diagnostics } = render('# T\n\nSee [x](/no/such/page/) and {{ NOT_A_CONSTANT }}.\n');
    const messages = diagnostics.items.map((d) => `${d.line}:${d.column} ${d.message}`);
    expect(messages).toEqual([`${LINE_OFFSET + 3}:29 unknown constant "NOT_A_CONSTANT"`]);
    // Links are checked against every page later (src/node/site); the pass records where each one was.
    expect(page.analysis.links).toContainEqual(
      expect.objectContaining({ route: '/no/such/page/', line: LINE_OFFSET + 3, column: 5 }),
    );
    expect(htmlProblems(page.html)).toEqual({ balance: [], safety: [], restructuring: [] });
  });

  it('takes an image whose source is the page folder or a malformed escape as a missing image', () => {
    // These used to throw (EISDIR reading the folder, URIError decoding) and stop the whole build.
    const { page, diagnostics } = render('# T\n\n![a]() ![b](#top) ![c](./) ![d](%E0%A4%A) ![e](./diagram.png)\n');
    expect(diagnostics.items.map((d) => d.message)).toEqual([
      'image not found: ',
      'image not found: #top',
      'image not found: ./',
      'image not found: %E0%A4%A',
    ]);
    expect(page.analysis.assets).toHaveLength(1);
  });
});
