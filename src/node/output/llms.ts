import { markdownTwinPath } from '../../shared/paths';
import type { Manifest } from '../../shared/types';
import type { PageRecord } from '../analyze/page-record';
import { heldText, type StoredText } from '../analyze/text-store';
import { pageUrl } from './page-url';
import { LLMS_FULL_FILE, LLMS_INDEX_FILE } from '../../shared/root-files';

/**
 * The site for AI assistants and other tools (the llms.txt convention): `llms.txt` is an index of every
 * page — title, URL, description — grouped as the sidebar is, `llms-full.txt` every page's markdown in
 * that order, and each page also has a markdown twin next to its folder (`markdownTwinPath`).
 */
export { LLMS_FULL_FILE, LLMS_INDEX_FILE };

/** `llms.txt`, and `llms-full.txt` in parts, each page's markdown read only as the file is written. */
export function renderLlmsFiles(
  manifest: Manifest,
  pages: readonly PageRecord[],
): { index: string; full: readonly StoredText[] } {
  const { site } = manifest;
  const url = (route: string) => pageUrl(site.siteUrl, site.base, route);
  const byRoute = new Map(pages.map((page) => [page.route, page]));
  const groups: { text: string; pages: PageRecord[] }[] = [];
  const listed = new Set<string>();
  for (const group of manifest.sidebar) {
    const members = group.items.flatMap((item) => byRoute.get(item.link) ?? []).filter((p) => !listed.has(p.route));
    for (const page of members) listed.add(page.route);
    if (members.length > 0) groups.push({ text: group.text, pages: members });
  }
  const rest = pages.filter((page) => !listed.has(page.route));
  if (rest.length > 0) groups.push({ text: 'Other pages', pages: rest });

  const example = pages.find((page) => page.route !== '/');
  const twinRule = example
    ? `add \`.md\` to its URL without the final slash (${url(markdownTwinPath(example.route))} for ${url(example.route)}), or use ${url(markdownTwinPath('/'))} for the home page`
    : `${url(markdownTwinPath('/'))}`;
  const header = [
    `# ${site.title}`,
    '',
    `> ${site.description}`,
    '',
    `Every page is also served as markdown: ${twinRule}. ${url('/')}${LLMS_FULL_FILE} holds every page in one file.`,
    '',
  ];
  const index = [...header];
  const full = [heldText(`# ${site.title}\n\n> ${site.description}\n`)];
  for (const group of groups) {
    index.push(`## ${group.text}`, '');
    for (const page of group.pages) {
      index.push(`- [${page.title}](${url(page.route)})${page.description ? `: ${page.description}` : ''}`);
      full.push(heldText(`\n---\n\nSource: ${url(page.route)}\n\n`), page.markdown);
    }
    index.push('');
  }
  const last = full.length - 1;
  full[last] = heldText(`${(full[last]?.read() ?? '').trimEnd()}\n`);
  return { index: `${index.join('\n').trimEnd()}\n`, full };
}

/** Where a page's markdown twin is written in `dist/`. */
export function markdownTwinFile(route: string): string {
  return markdownTwinPath(route).slice(1);
}
