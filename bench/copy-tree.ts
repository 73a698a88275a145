/**
 * Large trees made of real pages for the benchmarks and the 10,000-page browser test: `content/` as it is,
 * plus as many copies of its pages as the size asks for, each copy in a folder of its own (`/s007/…`) with
 * one sidebar group per copy (a section of a hundred-odd entries). Relative links stay inside their copy and absolute ones lead to the original
 * pages, so the tree builds without a problem; with `brokenLinks`, every third absolute link of a copy
 * gets a typo, which the build reports as a broken link with a suggestion (build with `strict: false`).
 *
 *   npx tsx bench/copy-tree.ts <dir> [pages] [--broken-links]
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

const projectContent = fileURLToPath(new URL('../content', import.meta.url));
const SITE_FILE = '_site.yaml';

export interface CopyOptions {
  /** Make every third absolute link of a copy a broken one. */
  brokenLinks?: boolean;
  /** The tree to copy; the project's content/ by default. */
  from?: string;
}

interface SiteYaml {
  sidebar?: { text: string; items: string[] }[];
  apiReference?: { spec: string; route: string }[];
  [key: string]: unknown;
}

/** The copy folder of copy `n`: short, and sorted in copy order. */
export const copyFolder = (n: number): string => `s${String(n).padStart(3, '0')}`;

/** Writes the tree into `<dir>` (which must not exist yet, or be empty); returns its number of pages. */
export async function copyTree(dir: string, pages: number, options: CopyOptions = {}): Promise<number> {
  const from = options.from ?? projectContent;
  await cp(from, dir, { recursive: true });
  const files = (await readdir(from, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name !== SITE_FILE)
    .map((entry) => path.relative(from, path.join(entry.parentPath, entry.name)));
  const markdown = files.filter((file) => file.endsWith('.md')).length;
  const copies = Math.max(0, Math.ceil((pages - markdown) / markdown));
  const texts = new Map<string, string | Buffer>();
  for (const file of files) {
    const bytes = await readFile(path.join(from, file));
    texts.set(file, file.endsWith('.md') ? bytes.toString('utf8') : bytes);
  }
  const site = parse(await readFile(path.join(from, SITE_FILE), 'utf8')) as SiteYaml;
  const groups = site.sidebar ?? [];
  for (let n = 1; n <= copies; n++) {
    const folder = copyFolder(n);
    let linkCount = 0;
    for (const [file, contents] of texts) {
      const target = path.join(dir, folder, file);
      await mkdir(path.dirname(target), { recursive: true });
      if (typeof contents !== 'string' || !options.brokenLinks) {
        await writeFile(target, contents);
        continue;
      }
      // `](/route` → `](/xroute` for every third absolute link: a typo the suggestion finds again.
      const broken = contents.replace(/\]\(\/(?=[a-z])/g, (link) => (linkCount++ % 3 === 0 ? '](/x' : link));
      await writeFile(target, broken);
    }
  }
  site.sidebar = [
    ...groups,
    ...Array.from({ length: copies }, (_, i) => ({
      text: `Section ${i + 1}`,
      items: groups.flatMap((group) => group.items.map((item) => `/${copyFolder(i + 1)}${item}`)),
    })),
  ];
  // Each copy has its own API reference, made from its copy of the OpenAPI document: its sidebar names it.
  const references = site.apiReference ?? [];
  if (references.length > 0)
    site.apiReference = [
      ...references,
      ...Array.from({ length: copies }, (_, i) =>
        references.map(({ spec, route }) => ({
          spec: `${copyFolder(i + 1)}/${spec}`,
          route: `/${copyFolder(i + 1)}${route}`,
        })),
      ).flat(),
    ];
  await writeFile(path.join(dir, SITE_FILE), stringify(site));
  return markdown * (copies + 1);
}

async function main(args: string[]): Promise<void> {
  const [dir, count] = args.filter((arg) => !arg.startsWith('--'));
  if (!dir) throw new Error('usage: copy-tree.ts <dir> [pages] [--broken-links]');
  const written = await copyTree(path.resolve(dir), Number(count ?? 10_000), {
    brokenLinks: args.includes('--broken-links'),
  });
  console.log(`${written} pages written to ${dir}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
