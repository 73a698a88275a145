import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildResult } from '../../src/node/build';
import { ALIAS_BOMB } from '../helpers/alias-bomb';
import { buildTree, makeTree, messages } from '../helpers/tree';
import { BAD_VERSION_INPUTS } from './bad-version-inputs';

/**
 * Bad (or merely unusual) input to the build, one real content tree per case. Shared by
 * test/resilience/build-input.test.ts and the bench (bench/resilience.ts), which counts and runs the same list.
 */
export interface BadInput {
  name: string;
  files: Record<string, string | Uint8Array>;
  /** Extra set-up on the tree (symbolic links) after the files are written. */
  prepare?: (contentDir: string) => Promise<void>;
  /** true: the build must succeed (unusual input); false: it must fail and write no dist/. */
  builds: boolean;
  /** The most seconds the build may take (for input built to make it work for hours). */
  seconds?: number;
  /** Each must match one diagnostic line (`file:line:col message`). */
  expected: RegExp[];
  /** Further checks on a successful build's output; return a list of problems (empty when fine). */
  check?: (root: string) => string[];
}

export interface BadInputOutcome {
  name: string;
  /** The build returned (never threw) and reported what the case expects. */
  handled: boolean;
  problems: string[];
  messages: string[];
  seconds: number;
}

const HOME = { 'README.md': '# Home\n\nWelcome.\n' };

const HOSTILE_TITLE = `<script>alert(1)</script> "quoted" 'single' & 🎉 עברית مرحبا`;

/** A page about 5 MB large: many sections of ordinary prose, lists and code. */
function hugePage(): { text: string; last: number } {
  const block =
    '## Section {n}\n\nSome prose with **bold**, `code` and a [link](#section-{n}). '.repeat(1) +
    'A workflow runs its steps in order and passes each result to the next step. '.repeat(16) +
    '\n\n- one\n- two\n\n```js\nconst x = {n};\n```\n\n';
  const parts = ['# Huge\n\n'];
  let size = 0;
  let n = 0;
  for (; size < 5 * 1024 * 1024; n++) {
    const part = block.replaceAll('{n}', String(n));
    parts.push(part);
    size += part.length;
  }
  return { text: parts.join(''), last: n - 1 };
}

const HUGE = hugePage();

function read(root: string, file: string): string {
  return readFileSync(path.join(root, 'dist', file), 'utf8');
}

/** The first element of a kind, for escaping checks. */
function firstElement(html: string, tag: string): string {
  return new RegExp(`<${tag}\\b[^]*?</${tag}>`).exec(html)?.[0] ?? '';
}

export const BAD_INPUTS: BadInput[] = [
  {
    name: 'malformed YAML frontmatter',
    files: { ...HOME, 'a.md': '---\ntitle: [unclosed\ndescription: x\n---\n# A\n' },
    builds: false,
    expected: [/^a\.md:\d+:\d+ invalid frontmatter YAML: /],
  },
  {
    name: 'frontmatter of the wrong type',
    files: { ...HOME, 'a.md': '---\ndescription: fine\ntitle: 42\nprev: yes\n---\n# A\n' },
    builds: false,
    expected: [/^a\.md:3:\d+ "title" /, /^a\.md:4:\d+ "prev" /],
  },
  {
    name: 'frontmatter that is not a mapping',
    files: { ...HOME, 'a.md': '---\n- just\n- a list\n---\n# A\n' },
    builds: false,
    expected: [/^a\.md:\d+:\d+ frontmatter must be a mapping/],
  },
  {
    name: 'frontmatter never closed',
    files: { ...HOME, 'a.md': '---\ntitle: A\n\n# A\n' },
    builds: false,
    expected: [/^a\.md:1:1 frontmatter starts with "---" but has no closing "---" line/],
  },
  {
    name: 'an unclosed code fence',
    files: { ...HOME, 'a.md': '# A\n\nText.\n\n```js\nconst a = 1;\n' },
    builds: false,
    expected: [/^a\.md:5:1 code fence is never closed/],
  },
  {
    name: 'an unknown code language (warning only)',
    files: { ...HOME, 'a.md': '# A\n\n```klingon\nqapla\n```\n' },
    builds: true,
    expected: [/^a\.md:3:1 warning: unknown code language "klingon"/],
    check: (root) => (read(root, 'a/index.html').includes('qapla') ? [] : ['the code is missing from the page']),
  },
  {
    name: 'an unknown constant',
    files: {
      '_site.yaml': 'title: T\nconstants:\n  LIMIT: 10\n',
      ...HOME,
      'a.md': '# A\n\nThe limit is {{ LIMTI }}.\n',
    },
    builds: false,
    expected: [/^a\.md:3:14 unknown constant "LIMTI" \(did you mean "LIMIT"\?\)/],
  },
  {
    name: 'a broken link and a broken anchor',
    files: { ...HOME, 'a.md': '# A\n\n## Real\n\nSee [x](/nowhere/) and [y](/a/#unreal).\n' },
    builds: false,
    expected: [
      /^a\.md:5:5 broken link "\/nowhere\/": no page at \/nowhere\//,
      /^a\.md:5:\d+ broken anchor "\/a\/#unreal": \/a\/ has no heading #unreal/,
    ],
  },
  {
    name: 'two files claiming one route',
    files: { ...HOME, 'a.md': '# A\n', 'a/README.md': '# Also A\n' },
    builds: false,
    expected: [/^a\.md:1:1 route \/a\/ is already claimed by a\/README\.md/],
  },
  {
    name: 'a redirect to nowhere',
    files: { '_site.yaml': 'title: T\nredirects:\n  /old: /gone/\n', ...HOME },
    builds: false,
    expected: [/^_site\.yaml:3:\d+ redirect \/old leads to \/gone\/, which is not a page/],
  },
  {
    name: 'a missing image',
    files: { ...HOME, 'a.md': '# A\n\nText.\n\n![diagram](./missing.png)\n' },
    builds: false,
    expected: [/^a\.md:5:1 image not found: \.\/missing\.png/],
  },
  {
    name: 'an empty file',
    files: { ...HOME, 'a.md': '' },
    builds: false,
    expected: [/^a\.md:1:1 page has no title/],
  },
  {
    name: 'a file that is not UTF-8',
    files: { ...HOME, 'a.md': new Uint8Array([0x23, 0x20, 0x41, 0x0a, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x0a]) },
    builds: false,
    expected: [/^a\.md:3:4 file is not valid UTF-8/],
  },
  {
    name: 'a 5 MB page',
    files: { ...HOME, 'huge.md': HUGE.text },
    builds: true,
    expected: [],
    check: (root) => {
      const html = read(root, 'huge/index.html');
      return html.includes(`id="section-${HUGE.last}"`) ? [] : ['the last sections of the page are missing'];
    },
  },
  {
    name: '5,000 headings on one page',
    files: {
      ...HOME,
      'many.md': `# Many\n\n${Array.from({ length: 5000 }, (_, i) => `## Same\n\nText ${i}.\n`).join('\n')}`,
    },
    builds: true,
    expected: [],
    check: (root) => {
      const ids = [...read(root, 'many/index.html').matchAll(/<h2 id="([^"]*)"/g)].map((m) => m[1]);
      const problems: string[] = [];
      if (ids.length !== 5000) problems.push(`${ids.length} h2 ids instead of 5000`);
      if (new Set(ids).size !== ids.length) problems.push('heading ids are not unique');
      return problems;
    },
  },
  {
    name: 'lists and blockquotes nested 100 deep, the limit',
    files: {
      ...HOME,
      'lists.md': `# Lists\n\n${Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')}\n`,
      'quotes.md': `# Quotes\n\n${'>'.repeat(100)} deep\n`,
      'mixed.md': `# Mixed\n\n${Array.from({ length: 50 }, (_, i) => `${'  '.repeat(i)}- > item ${i}`).join('\n')}\n`,
    },
    builds: true,
    expected: [],
    check: (root) => {
      const problems: string[] = [];
      if (!read(root, 'lists/index.html').includes('level 99')) problems.push('the deepest list item is missing');
      if (!read(root, 'quotes/index.html').includes('deep')) problems.push('the deepest quote is missing');
      return problems;
    },
  },
  {
    name: 'lists and quotes nested past the limit, 10,000 on one line',
    files: {
      ...HOME,
      'quotes.md': `# Quotes\n\n${'>'.repeat(10_000)} deep\n`,
      'items.md': `# Items\n\nText.\n\n${'- '.repeat(10_000)}deep\n`,
      'indented.md': `# Indented\n\n${Array.from({ length: 2_000 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')}\n`,
    },
    builds: false,
    seconds: 20,
    expected: [
      /^quotes\.md:3:1 lists and quotes are nested 10000 levels deep here; a page may nest 100 /,
      /^items\.md:5:1 lists and quotes are nested 10000 levels deep here/,
      /^indented\.md:103:1 lists and quotes are nested 101 levels deep here/,
    ],
  },
  {
    name: 'emphasis markers that make the parser work for hours (pages of 1 MB and 8 MB)',
    files: {
      ...HOME,
      'stars.md': `# Stars\n\nIntro.\n\n${'**a'.repeat(300_000)}\n`,
      'underscores.md': `# Under\n\n${`${'_a'.repeat(150)}\n\n`.repeat(27_000)}`,
    },
    builds: false,
    seconds: 20,
    expected: [
      /^stars\.md:5:1 too many emphasis markers \(\* _ ~\) in long words or nested emphasis for the markdown parser/,
      /^underscores\.md:3:1 too many emphasis markers/,
    ],
  },
  {
    name: 'titles with HTML, quotes, emoji and right-to-left text',
    files: {
      ...HOME,
      'a.md':
        `---\ntitle: ${JSON.stringify(HOSTILE_TITLE)}\n---\n\n` +
        '## \\<script>alert(1)\\</script> "q" & 🎉 עברית\n\nText.\n\n' +
        '## "><img src=x onerror=alert(1)> raw\n\nText.\n',
    },
    builds: true,
    expected: [],
    check: (root) => {
      const html = read(root, 'a/index.html');
      const title = firstElement(html, 'title');
      const [typed = '', raw = ''] = [...html.matchAll(/<h2 id=[^]*?<\/h2>/g)].map((m) => m[0]);
      const problems: string[] = [];
      if (!title.includes('&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot;')) {
        problems.push(`title not escaped: ${title}`);
      }
      if (!title.includes('🎉 עברית مرحبا')) problems.push(`title lost its text: ${title}`);
      // Text typed into a heading shows literally; raw HTML in a heading loses its event handler.
      if (!typed.includes('&lt;script&gt;alert(1)&lt;/script&gt; "q" &amp; 🎉 עברית')) {
        problems.push(`heading not escaped: ${typed}`);
      }
      if (/onerror/i.test(raw)) problems.push(`live handler in a heading: ${raw}`);
      if (/<script>alert|onerror=/i.test(html)) problems.push('live markup in the page');
      return problems;
    },
  },
  {
    name: 'file names with spaces and unicode',
    files: {
      'README.md': '# Home\n\n[spaces](my%20page.md), [unicode](<ünï cödé.md>) and [route](/ünï-cödé-2/).\n',
      'my page.md': '# My page\n',
      'ünï cödé.md': '# Unicode\n',
      'ünï-cödé-2.md': '# Unicode 2\n',
    },
    builds: true,
    expected: [],
    check: (root) => {
      const problems: string[] = [];
      for (const dir of ['my page', 'ünï cödé', 'ünï-cödé-2']) {
        if (!existsSync(path.join(root, 'dist', dir, 'index.html'))) problems.push(`no page for ${dir}`);
      }
      const home = read(root, 'index.html');
      for (const href of ['/docs/my%20page/', `/docs/${encodeURI('ünï cödé')}/`, `/docs/${encodeURI('ünï-cödé-2')}/`]) {
        if (!home.includes(`href="${href}"`)) problems.push(`home has no link to ${href}`);
      }
      return problems;
    },
  },
  {
    name: 'a page linked from outside the content folder',
    files: { ...HOME },
    prepare: async (contentDir) => {
      const outside = path.join(path.dirname(contentDir), 'passwd');
      await writeFile(outside, 'root:x:0:0:root:/root:/bin/bash\n');
      await symlink(outside, path.join(contentDir, 'passwd.md'));
    },
    builds: false,
    expected: [/^passwd\.md:1:1 page links to a file outside the content folder: it is not published$/],
  },
  {
    name: "pages whose output would land on the site's own files",
    files: {
      ...HOME,
      'version.json.md': '# Version\n',
      'favicon.svg.md': '# Icon\n',
      'sitemap.xml.md': '# Sitemap\n',
      'guide/README.md': '# Guide\n',
      'guide.md.md': '# Guide twin\n',
    },
    builds: false,
    expected: [
      /^version\.json\.md:1:1 route \/version\.json\/ needs a folder version\.json\/ where the site writes/,
      /^favicon\.svg\.md:1:1 route \/favicon\.svg\/ needs a folder favicon\.svg\//,
      /^sitemap\.xml\.md:1:1 route \/sitemap\.xml\/ needs a folder sitemap\.xml\//,
      /^guide\.md\.md:1:1 route \/guide\.md\/ needs a folder guide\.md\/ where the site writes the markdown twin guide\.md of guide\/README\.md/,
    ],
  },
  {
    name: 'file names that would change their URL',
    files: { ...HOME, 'q?a.md': '# Q\n', 'c#.md': '# C\n', 'back\\slash.md': '# B\n', '%2e%2e.md': '# Up\n' },
    builds: false,
    expected: [
      /^q\?a\.md:1:1 the file name has "\?", which cannot be part of a page's URL: rename it$/,
      /^c#\.md:1:1 the file name has "#"/,
      /^back\\slash\.md:1:1 the file name has "\\"/,
      /^%2e%2e\.md:1:1 the file name has "%"/,
    ],
  },
  {
    name: 'file names with "&" and spaces, in the sitemap and llms.txt',
    files: {
      '_site.yaml': 'title: T\nsiteUrl: https://docs.example.com\n',
      'README.md': '# Home\n\n[q](q&a.md) and [p](<my page.md>)\n',
      'q&a.md': '# Questions & answers\n',
      'my page.md': '# My page\n',
    },
    builds: true,
    expected: [],
    check: (root) => {
      const problems: string[] = [];
      const sitemap = read(root, 'sitemap.xml');
      const llms = read(root, 'llms.txt');
      // An `&` that starts no entity makes the whole file invalid XML.
      if (/&(?!amp;|lt;|gt;|quot;|#39;)/.test(sitemap)) problems.push(`unescaped & in the sitemap: ${sitemap}`);
      for (const loc of ['https://docs.example.com/docs/q&amp;a/', 'https://docs.example.com/docs/my%20page/']) {
        if (!sitemap.includes(`<loc>${loc}</loc>`)) problems.push(`the sitemap has no ${loc}: ${sitemap}`);
      }
      if (!llms.includes('(https://docs.example.com/docs/my%20page/)')) problems.push(`llms.txt: ${llms}`);
      if (!read(root, 'index.html').includes('href="/docs/q&amp;a/"')) problems.push('home has no link to q&a');
      return problems;
    },
  },
  {
    name: 'a YAML alias bomb in _site.yaml',
    files: {
      '_site.yaml': `title: T\n${ALIAS_BOMB}\n`,
      ...HOME,
    },
    builds: false,
    expected: [/^_site\.yaml:3:8 YAML aliases \(\*name\) here expand to too many values/],
  },
  {
    name: 'a YAML alias bomb in frontmatter',
    files: { ...HOME, 'a.md': `---\ntitle: A\n${ALIAS_BOMB}\n---\n# A\n` },
    builds: false,
    expected: [/^a\.md:4:8 YAML aliases \(\*name\) here expand to too many values/],
  },
  {
    name: 'an unknown key near the end of _site.yaml',
    files: {
      '_site.yaml': 'title: T\nconstants:\n  LIMIT: 10\nlang: en-US\nfeedbak: true\n',
      ...HOME,
      'a.md': '# A\n\nThe limit is {{ LIMIT }}.\n',
    },
    builds: false,
    expected: [/^_site\.yaml:5:1 unknown key "feedbak" in _site\.yaml$/],
  },
  {
    name: 'a symbolic link loop',
    files: { ...HOME, 'sub/page.md': '# Page\n' },
    prepare: (contentDir) => symlink('..', path.join(contentDir, 'sub/loop')),
    builds: false,
    expected: [/^sub\/loop:1:1 symbolic link loop/],
  },
  ...BAD_VERSION_INPUTS,
];

/** Builds one case's tree for real and says whether the build handled it as the case expects. */
export async function runBadInput(input: BadInput): Promise<BadInputOutcome & { root: string }> {
  const root = await makeTree(input.files);
  await input.prepare?.(path.join(root, 'content'));
  const started = performance.now();
  const problems: string[] = [];
  let result: BuildResult | undefined;
  try {
    result = await buildTree(root);
  } catch (error) {
    problems.push(`the build threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  const seconds = (performance.now() - started) / 1000;
  if (input.seconds !== undefined && seconds > input.seconds) {
    problems.push(`the build took ${seconds.toFixed(1)} s, more than ${input.seconds} s`);
  }
  const lines = result ? messages(result) : [];
  if (result) {
    if (result.ok !== input.builds) problems.push(`build ${result.ok ? 'succeeded' : 'failed'}: ${lines.join('; ')}`);
    for (const pattern of input.expected) {
      if (!lines.some((l) => pattern.test(l))) problems.push(`no message matches ${pattern}: ${lines.join('; ')}`);
    }
    for (const line of lines) {
      if (/\n\s+at |Error:|undefined|\[object /.test(line)) problems.push(`unclear message: ${line}`);
    }
    const dist = path.join(root, 'dist');
    if (!input.builds && existsSync(dist)) problems.push('a failed build left a dist/ behind');
    const leftovers = readdirSync(root, { recursive: true }).filter((n) => n.includes('.replacing-'));
    if (leftovers.length > 0) problems.push(`files half-written left behind: ${leftovers.join(', ')}`);
    if (input.builds && result.ok) problems.push(...(input.check?.(root) ?? []));
  }
  return { name: input.name, handled: problems.length === 0, problems, messages: lines, seconds, root };
}
