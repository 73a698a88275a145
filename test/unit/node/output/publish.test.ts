import { existsSync, readFileSync } from 'node:fs';
import { readdir, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeploymentPointer, Manifest, PageMeta } from '../../../../src/shared/types';
import { runBuild } from '../../../helpers/build-process';
import { buildOutput } from '../../../helpers/output';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

const before = {
  '_site.yaml': 'title: Crash Docs\nsidebar:\n  - text: Guide\n    items: [/, /guide/, /other/]\n',
  'README.md': '# Home\n\nSee [the guide](./guide.md).\n',
  'guide.md': '# Guide\n\nSome text about workflows.\n\n## Setup\n\nMore text.\n',
  'other.md': '# Other\n\nPlain words.\n',
};

/** The next version of the site: a page edited (new search data), one removed and one added. */
const after = {
  '_site.yaml': 'title: Crash Docs\nsidebar:\n  - text: Guide\n    items: [/, /guide/, /new/]\n',
  'README.md': before['README.md'],
  'guide.md': '# Guide\n\nOther text about triggers and steps.\n\n## Setup\n\nMore text.\n',
  'new.md': '# New\n\nA page that was not there before.\n',
};
const removedRoutes = ['/other/'];

/** Files a build leaves half-done: a replacement not moved into place. */
async function leftovers(root: string): Promise<string[]> {
  const names = await Promise.all(
    ['dist', 'manifest'].map((dir) => readdir(path.join(root, dir), { recursive: true }).catch(() => [])),
  );
  return names.flat().filter((name) => name.includes('.replacing-'));
}

/** The files of the output `root` has that differ from `expected` (missing, extra or with other bytes). */
async function differences(root: string, expected: Map<string, string>): Promise<string[]> {
  const actual = await buildOutput(root);
  const names = new Set([...actual.keys(), ...expected.keys()]);
  return [...names].filter((name) => actual.get(name) !== expected.get(name)).sort();
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/**
 * What a reader meets in `dist/` as it is: the pointer names a manifest whose route shards and fragments
 * are all there and whole, and every page document there is a page of that deployment (or one this update
 * removes), never a page the app would then replace with "Page not found".
 */
async function readersSiteProblems(dist: string): Promise<string[]> {
  const problems: string[] = [];
  const inDist = (url: string) => path.join(dist, url.replace(/^\/docs\//, ''));
  const pointer = readJson<DeploymentPointer>(path.join(dist, 'version.json'));
  const manifest = readJson<Manifest>(inDist(pointer.manifest));
  const pages: PageMeta[] = [];
  for (const name of pointer.shards ?? []) {
    const shard = inDist(`/docs/assets/js/routes.${name}.json`);
    if (!existsSync(shard)) problems.push(`route shard ${name} missing`);
    else pages.push(...readJson<{ pages: PageMeta[] }>(shard).pages);
  }
  for (const page of pages) {
    if (!existsSync(inDist(page.fragment))) problems.push(`${page.path}: fragment ${page.fragment} missing`);
  }
  if (!existsSync(inDist(manifest.search))) problems.push(`search data ${manifest.search} missing`);
  const routes = new Set([...pages.map((page) => page.path), ...removedRoutes]);
  const names = await readdir(dist, { recursive: true });
  for (const name of names.filter((name) => name === 'index.html' || name.endsWith('/index.html'))) {
    const route = `/${name.replace(/index\.html$/, '')}`;
    if (!routes.has(route)) problems.push(`${name}: a page the deployment in version.json does not have`);
    if (!readFileSync(path.join(dist, name), 'utf8').trimEnd().endsWith('</html>')) problems.push(`${name}: cut short`);
  }
  return problems;
}

describe('a build killed while it updates the output', () => {
  let cold: Map<string, string>;
  beforeAll(async () => {
    const root = await makeTree(after);
    expect(messages(await buildTree(root))).toEqual([]);
    cold = await buildOutput(root);
  });

  // Moments of the update (output/test-kill-hook.ts): files being written; dist/'s files moving into
  // place, before the pointer and after it; dist/'s sweep; dist/ done and manifest/ not; manifest/'s sweep.
  const moments = ['write:12', 'rename:1', 'rename:3', 'sweep:1', 'ledger:1', 'sweep:2'];
  it.each(moments)('at %s leaves a working site, and the next build makes it whole', async (moment) => {
    // Built where it is updated: the ledger and the page cache know the tree by its folders.
    const root = await makeTree(before);
    expect(messages(await buildTree(root))).toEqual([]);
    for (const [name, text] of Object.entries(after)) await writeFile(path.join(root, 'content', name), text);
    await rm(path.join(root, 'content/other.md'));

    const killed = await runBuild(root, { env: { DOCS_BUILD_TEST_KILL_AT: moment } });
    expect(killed.signal, killed.stdout + killed.stderr).toBe('SIGKILL');
    expect(await readersSiteProblems(path.join(root, 'dist'))).toEqual([]);

    // The killed build's locks are taken over, with a note.
    const log: string[] = [];
    expect(messages(await buildTree(root, { log: (line) => log.push(line) }))).toEqual([]);
    expect(log.filter((line) => line.startsWith('took over'))).toHaveLength(3);
    expect(await leftovers(root)).toEqual([]);
    expect(await differences(root, cold)).toEqual([]);
    // And it stays so: the ledger keeps nothing the repair left wrong.
    expect(messages(await buildTree(root))).toEqual([]);
    expect(await differences(root, cold)).toEqual([]);
  });
});

describe('a search file of dist/ damaged by hand', () => {
  it.each([
    ['edited', (file: string) => writeFile(file, '{"edited": "by hand"}\n')],
    ['left empty, as a killed write leaves it', (file: string) => truncate(file, 0)],
  ])('%s is made again in dist/ and in manifest/', async (_name, damage) => {
    const root = await makeTree(before);
    expect(messages(await buildTree(root))).toEqual([]);
    const expected = await buildOutput(root);
    const searchDir = path.join(root, 'dist/assets/js/search');
    const shards = await readdir(searchDir);
    expect(shards.length).toBeGreaterThan(0);
    for (const shard of shards) await damage(path.join(searchDir, shard));

    expect(messages(await buildTree(root))).toEqual([]);
    expect(await differences(root, expected)).toEqual([]);
    expect(messages(await buildTree(root))).toEqual([]);
    expect(await differences(root, expected)).toEqual([]);
  });
});
