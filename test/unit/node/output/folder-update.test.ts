import { existsSync, readFileSync, statSync } from 'node:fs';
import { appendFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOutput } from '../../../helpers/output';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

const site = {
  '_site.yaml': 'title: Update Docs\nsidebar:\n  - text: Guide\n    items: [/, /guide/, /other/]\n',
  'README.md': '# Home\n\nSee [the guide](./guide.md).\n',
  'guide.md': '# Guide\n\nSome text about workflows.\n\n## Setup\n\nMore text.\n',
  'other.md': '# Other\n\nPlain words.\n',
};

/** A file's identity on disk: the same inode and time mean the build did not touch it. */
const stamp = (file: string) => {
  const stats = statSync(file);
  return `${stats.ino}:${stats.mtimeMs}`;
};

/** Files a build leaves half-done: a replacement not moved into place. */
async function leftovers(root: string): Promise<string[]> {
  const names = await Promise.all(
    ['dist', 'manifest'].map((dir) => readdir(path.join(root, dir), { recursive: true }).catch(() => [])),
  );
  return names.flat().filter((name) => name.includes('.replacing-'));
}

/** Expects the output of `root` to be what a cold build of `files` makes. */
async function expectSameAsCold(root: string, files: Record<string, string>): Promise<void> {
  const cold = await makeTree(files);
  expect(messages(await buildTree(cold))).toEqual([]);
  expect(await buildOutput(root)).toEqual(await buildOutput(cold));
}

describe('updating the output in place', () => {
  it('leaves the files of unchanged pages alone, replaces the edited page, and drops a removed one', async () => {
    const root = await makeTree(site);
    expect(messages(await buildTree(root))).toEqual([]);
    const other = path.join(root, 'dist/other/index.html');
    const guide = path.join(root, 'dist/guide/index.html');
    const notFound = path.join(root, 'dist/404.html');
    const [otherBefore, guideBefore, notFoundBefore] = [stamp(other), stamp(guide), stamp(notFound)];

    const edited = { ...site, 'guide.md': '# Guide\n\nOther text about workflows.\n\n## Setup\n\nMore text.\n' };
    await writeFile(path.join(root, 'content/guide.md'), edited['guide.md']);
    expect(messages(await buildTree(root))).toEqual([]);
    // The other page's document shows nothing of the edit (documents name no deployment): untouched.
    expect(stamp(other)).toBe(otherBefore);
    // Nor does the not-found page's, which shows the site's frame and no page.
    expect(stamp(notFound)).toBe(notFoundBefore);
    expect(stamp(guide)).not.toBe(guideBefore);
    expect(readFileSync(guide, 'utf8')).toContain('Other text about workflows.');
    expect(await leftovers(root)).toEqual([]);
    await expectSameAsCold(root, edited);

    // A removed page's files go, and so does its folder.
    const { 'other.md': _removed, ...rest } = edited;
    const fewer = { ...rest, '_site.yaml': site['_site.yaml'].replace(', /other/', '') };
    await rm(path.join(root, 'content/other.md'));
    await writeFile(path.join(root, 'content/_site.yaml'), fewer['_site.yaml']);
    expect(messages(await buildTree(root))).toEqual([]);
    expect(existsSync(path.join(root, 'dist/other'))).toBe(false);
    await expectSameAsCold(root, fewer);
  });

  it('keeps llms-full.txt and manifest.json while nothing they hold changes, and writes them again when it does', async () => {
    const root = await makeTree(site);
    expect(messages(await buildTree(root))).toEqual([]);
    const llmsFull = path.join(root, 'dist/llms-full.txt');
    const manifest = path.join(root, 'manifest/manifest.json');
    const [llmsBefore, manifestBefore] = [stamp(llmsFull), stamp(manifest)];

    expect(messages(await buildTree(root))).toEqual([]);
    expect(stamp(llmsFull)).toBe(llmsBefore);
    expect(stamp(manifest)).toBe(manifestBefore);

    // The sidebar's order is the order of the pages in llms-full.txt.
    const reordered = { ...site, '_site.yaml': site['_site.yaml'].replace('/guide/, /other/', '/other/, /guide/') };
    await writeFile(path.join(root, 'content/_site.yaml'), reordered['_site.yaml']);
    expect(messages(await buildTree(root))).toEqual([]);
    expect(stamp(llmsFull)).not.toBe(llmsBefore);
    await expectSameAsCold(root, reordered);

    const edited = { ...reordered, 'other.md': '# Other\n\nWords about webhooks.\n' };
    await writeFile(path.join(root, 'content/other.md'), edited['other.md']);
    const [llmsReordered, manifestReordered] = [stamp(llmsFull), stamp(manifest)];
    expect(messages(await buildTree(root))).toEqual([]);
    expect(stamp(llmsFull)).not.toBe(llmsReordered);
    expect(stamp(manifest)).not.toBe(manifestReordered);
    expect(readFileSync(llmsFull, 'utf8')).toContain('Words about webhooks.');
    await expectSameAsCold(root, edited);
  });

  it('writes again a file edited by hand in dist/, and removes a file it did not write', async () => {
    const root = await makeTree(site);
    await buildTree(root);
    await appendFile(path.join(root, 'dist/other/index.html'), '<!-- edited by hand -->');
    await writeFile(path.join(root, 'dist/stray.txt'), 'not the build’s\n');
    expect(messages(await buildTree(root))).toEqual([]);
    expect(readFileSync(path.join(root, 'dist/other/index.html'), 'utf8')).not.toContain('edited by hand');
    expect(existsSync(path.join(root, 'dist/stray.txt'))).toBe(false);
    await expectSameAsCold(root, site);
  });

  it('leaves both folders as they were when a write fails, with nothing half-done left behind', async () => {
    const root = await makeTree(site);
    await buildTree(root);
    // A file where the new page's folder must go: the page's document cannot be written.
    await writeFile(path.join(root, 'dist/new'), 'in the way\n');
    const before = await buildOutput(root);
    const changed = {
      ...site,
      'guide.md': '# Guide\n\nChanged text.\n',
      'new.md': '# New\n\nA new page.\n',
    };
    await writeFile(path.join(root, 'content/guide.md'), changed['guide.md']);
    await writeFile(path.join(root, 'content/new.md'), changed['new.md']);
    await expect(buildTree(root)).rejects.toThrow();
    expect(await buildOutput(root)).toEqual(before);
    expect(await leftovers(root)).toEqual([]);

    // With the way clear, the next build brings the output up to date.
    await rm(path.join(root, 'dist/new'));
    await mkdir(path.join(root, 'dist/new'));
    expect(messages(await buildTree(root))).toEqual([]);
    await expectSameAsCold(root, changed);
  });
});
