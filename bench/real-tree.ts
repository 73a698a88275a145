/**
 * A bench tree made from docs nobody here wrote: the VuePress 1 docs (a public repository), imported once
 * with `npm run import` and copied into sub-folders (`copy1/`, `copy2/`, …) with their images, up to the
 * page count asked for. It keeps its own broken links (pages and sections that moved years ago, links the
 * import does not carry over), and each copy rots the way real docs do:
 *   - a page that others link to is removed: their links now point at nothing;
 *   - another is renamed (`deploy.md` → `deploy-reference.md`): links to the old name break;
 *   - a section that others link to is removed (its heading becomes bold text): their anchors break;
 *   - every third absolute link gets a typo, the kind bench/copy-tree.ts's broken-links tree adds.
 * Such a tree carries warnings, so it is built with `--no-strict`.
 *
 * The tree is not in the repository; REAL_TREE_HOWTO says how to get it.
 *
 *   npx tsx bench/real-tree.ts <dir> [pages]
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { slug } from 'github-slugger';
import { parse, stringify } from 'yaml';
import { importSite, REPORT_FILE } from '../src/node/import/import-site';
import type { TreeSource } from './large-trees';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Where the bench looks for the real tree: BENCH_REAL_TREE, or bench/trees/vuepress-docs (git-ignored). */
export const REAL_TREE_DIR = process.env['BENCH_REAL_TREE']
  ? path.resolve(process.env['BENCH_REAL_TREE'])
  : path.join(projectRoot, 'bench/trees/vuepress-docs');

const COMMIT = '9fb4bb00925d9409e6732118e996411c6a82c85d';

export const REAL_TREE_HOWTO = [
  'The real-tree figures need the VuePress 1 docs (github.com/vuejs/vuepress, packages/docs/docs) in',
  'bench/trees/vuepress-docs (git-ignored), or a VuePress or VitePress docs folder named by BENCH_REAL_TREE.',
  'To get them, from the project folder:',
  '  git clone https://github.com/vuejs/vuepress /tmp/vuepress',
  `  git -C /tmp/vuepress checkout ${COMMIT}`,
  '  mkdir -p bench/trees && cp -r /tmp/vuepress/packages/docs/docs bench/trees/vuepress-docs',
].join('\n');

/** Why the real tree cannot be used, or undefined when it is there. */
export function realTreeMissing(): string | undefined {
  const config = ['.vuepress/config.js', '.vuepress/config.ts', '.vitepress/config.js', '.vitepress/config.ts'];
  if (config.some((file) => existsSync(path.join(REAL_TREE_DIR, file)))) return undefined;
  return REAL_TREE_HOWTO;
}

/** `npm run import` of the real tree into `out`; returns its page count. */
export async function importRealTree(out: string): Promise<number> {
  return (await importSite({ source: REAL_TREE_DIR, out })).pages;
}

/** The folder of copy `n`. */
export const realCopyFolder = (n: number): string => `copy${n}`;

const SITE_FILE = '_site.yaml';

interface SiteYaml {
  sidebar?: { text: string; items: string[] }[];
  redirects?: Record<string, string>;
  [key: string]: unknown;
}

/** A relative markdown link in a page: the file it points at (relative to the tree) and its anchor. */
interface RelativeLink {
  from: string;
  to: string;
  hash: string;
}

const LINK = /\]\((?!\/|[a-z][a-z0-9+.-]*:|#)([^)\s#]+\.md)(?:#([^)\s]+))?\)/gi;

function relativeLinks(file: string, text: string, pages: Set<string>): RelativeLink[] {
  const found: RelativeLink[] = [];
  for (const match of text.matchAll(LINK)) {
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] ?? ''));
    if (pages.has(to) && to !== file) found.push({ from: file, to, hash: match[2] ?? '' });
  }
  return found;
}

/** Targets linked from the most other pages first, so that each removal breaks links. */
function mostLinked(links: RelativeLink[], key: (link: RelativeLink) => string | undefined): string[] {
  const counts = new Map<string, number>();
  for (const link of links) {
    const k = key(link);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
}

/** The heading line of `text` whose id is `hash`, by its slug or an explicit `{#id}`. */
function headingLine(text: string, hash: string): string | undefined {
  let want: string;
  try {
    want = decodeURIComponent(hash).toLowerCase();
  } catch {
    return undefined;
  }
  return text.split('\n').find((line) => {
    const heading = /^#{2,6}\s+(.*?)\s*(?:\{#([^}]+)\})?\s*$/.exec(line);
    if (!heading) return false;
    return heading[2]?.toLowerCase() === want || slug(heading[1] ?? '') === want;
  });
}

/** What one copy removes and renames, chosen in turn among the most linked pages and sections. */
interface Rot {
  removed: string;
  renamed: string;
  section?: { file: string; line: string };
}

function plan(texts: Map<string, string | Buffer>, copies: number, rotAmong: string[]): Rot[] {
  const pages = new Set([...texts.keys()].filter((file) => file.endsWith('.md')));
  const links = [...texts].flatMap(([file, text]) =>
    typeof text === 'string' ? relativeLinks(file, text, pages) : [],
  );
  const linked = mostLinked(links, (link) => (link.hash ? undefined : link.to)).filter((f) => rotAmong.includes(f));
  const sections = mostLinked(links, (link) => (link.hash ? `${link.to}#${link.hash}` : undefined))
    .map((key) => {
      const [file = '', hash = ''] = key.split('#');
      const text = texts.get(file);
      const line = typeof text === 'string' ? headingLine(text, hash) : undefined;
      return line ? { file, line } : undefined;
    })
    .filter((s): s is { file: string; line: string } => s !== undefined);
  if (linked.length < 2) throw new Error('the real tree has too few pages linked from others to remove and rename');
  const pick = <T>(list: T[], i: number): T => list[i % Math.min(list.length, 8)] as T;
  return Array.from({ length: copies }, (_, i) => {
    const removed = pick(linked, 2 * i);
    let renamed = pick(linked, 2 * i + 1);
    if (renamed === removed) renamed = linked.find((f) => f !== removed) ?? renamed;
    const kept = sections.filter((s) => s.file !== removed && s.file !== renamed);
    const section = kept[i % Math.max(1, kept.length)];
    return section ? { removed, renamed, section } : { removed, renamed };
  });
}

const renamedFile = (file: string) =>
  file.replace(/(README|index)?\.md$/i, (_, readme?: string) => (readme ? 'overview.md' : '-reference.md'));

export interface RealTreeCopy {
  pages: number;
  copies: number;
  /** What the copies removed and renamed, for the report. */
  removedPages: number;
  renamedPages: number;
  removedSections: number;
}

/**
 * Writes the imported tree `from` and as many copies of it as `pages` asks for into `dir` (which must
 * not exist yet, or be empty). `editable` names a page left alone in every copy: the bench edits it.
 */
export async function copyRealTree(from: string, dir: string, pages: number, editable: string): Promise<RealTreeCopy> {
  await cp(from, dir, { recursive: true });
  await rm(path.join(dir, REPORT_FILE), { force: true });
  const files = (await readdir(from, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name !== SITE_FILE && entry.name !== REPORT_FILE)
    .map((entry) => path.relative(from, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  const texts = new Map<string, string | Buffer>();
  for (const file of files) {
    const bytes = await readFile(path.join(from, file));
    texts.set(file, file.endsWith('.md') ? bytes.toString('utf8') : bytes);
  }
  const markdown = files.filter((file) => file.endsWith('.md'));
  const perCopy = markdown.length - 1; // one page of each copy is removed
  const copies = Math.max(0, Math.ceil((pages - markdown.length) / perCopy));
  const rotAmong = markdown.filter((file) => file !== editable && file !== 'index.md' && file !== 'README.md');
  const rots = plan(texts, copies, rotAmong);
  const site = parse(await readFile(path.join(from, SITE_FILE), 'utf8')) as SiteYaml;
  const groups = site.sidebar ?? [];
  const redirects = site.redirects ?? {};
  for (let n = 1; n <= copies; n++) {
    const folder = realCopyFolder(n);
    const rot = rots[n - 1] as Rot;
    let absolute = 0;
    for (const [file, contents] of texts) {
      if (file === rot.removed) continue;
      const target = path.join(dir, folder, file === rot.renamed ? renamedFile(file) : file);
      await mkdir(path.dirname(target), { recursive: true });
      if (typeof contents !== 'string') {
        await writeFile(target, contents);
        continue;
      }
      let text = contents;
      if (rot.section && file === rot.section.file) {
        const title = rot.section.line.replace(/^#+\s+/, '').replace(/\s*\{#[^}]+\}\s*$/, '');
        text = text.replace(rot.section.line, `**${title}**`);
      }
      // `](/guide/…` → `](/xguide/…` for every third absolute link: a typo the suggestion finds again.
      text = text.replace(/\]\(\/(?=[a-z])/g, (link) => (absolute++ % 3 === 0 ? '](/x' : link));
      await writeFile(target, text);
    }
    for (const [fromRoute, to] of Object.entries(redirects)) {
      redirects[`/${folder}${fromRoute}`] = to.startsWith('/') ? `/${folder}${to}` : to;
    }
  }
  if (groups.length > 0) {
    site.sidebar = [
      ...groups,
      ...Array.from({ length: copies }, (_, i) => ({
        text: `Copy ${i + 1}`,
        items: groups.flatMap((group) => group.items.map((item) => `/${realCopyFolder(i + 1)}${item}`)),
      })),
    ];
  }
  if (Object.keys(redirects).length > 0) site.redirects = redirects;
  await writeFile(path.join(dir, SITE_FILE), stringify(site, { lineWidth: 0 }));
  return {
    pages: markdown.length + copies * perCopy,
    copies,
    removedPages: copies,
    renamedPages: copies,
    removedSections: rots.filter((rot) => rot.section).length,
  };
}

/** The page the bench visits first and edits: the longest reference page of the VuePress docs. */
const VISITED = 'theme/default-theme-config.md';

/** Searches a reader of the VuePress docs might type; the last ones have typos. */
const WARM_QUERIES = [
  'frontmatter',
  'plugin',
  'deploy',
  'sidebar',
  'markdown',
  'theme config',
  'base url',
  'i18n',
  'permalinks',
  'code blocks',
  'vue components',
  'service worker',
  'google analytics',
  'last updated',
  'search box',
  'navbar links',
  'dev server',
  'webpack',
  'custom containers',
  'line numbers',
  'frontmater',
  'pluign',
  'sidebr',
  'markdwon',
  'permalink',
];

/**
 * The bench's source of real trees: the real tree imported once (into `importDir`) and copied to the
 * size asked for. It visits and edits the longest reference page, /docs/theme/default-theme-config/.
 */
export function realTreeSource(importDir: string): TreeSource {
  let imported: Promise<number> | undefined;
  return {
    write: async (dir, pages) => {
      imported ??= importRealTree(importDir);
      await imported;
      const copy = await copyRealTree(importDir, dir, pages, VISITED);
      return {
        pages: copy.pages,
        note:
          `${copy.copies} copies of ${path.basename(REAL_TREE_DIR)}, each with a page removed, one renamed and ` +
          `${copy.removedSections === copy.copies ? 'a' : 'most with a'} section removed`,
      };
    },
    route: VISITED.replace(/\.md$/, '/'),
    edit: path.join(realCopyFolder(1), VISITED),
    queries: WARM_QUERIES.slice(0, 5),
    warmQueries: WARM_QUERIES,
  };
}

async function main(args: string[]): Promise<void> {
  const [dir, count] = args;
  if (!dir) throw new Error('usage: real-tree.ts <dir> [pages]');
  const missing = realTreeMissing();
  if (missing) throw new Error(missing);
  const imported = await mkdtemp(path.join(tmpdir(), 'docs-real-import-'));
  try {
    await importRealTree(path.join(imported, 'content'));
    const copy = await copyRealTree(path.join(imported, 'content'), path.resolve(dir), Number(count ?? 10_000), '');
    console.log(`${copy.pages} pages in ${copy.copies} copies written to ${dir}`);
  } finally {
    await rm(imported, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
