import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuildLock, BuildLockedError } from '../../../../src/node/output/build-lock';
import { startBuild } from '../../../helpers/build-process';
import { buildOutput } from '../../../helpers/output';
import { buildTree, makeTree, messages, treeBuildOptions } from '../../../helpers/tree';

const site = {
  '_site.yaml': 'title: Lock Docs\nsidebar:\n  - text: Guide\n    items: [/, /guide/, /other/]\n',
  'README.md': '# Home\n\nSee [the guide](./guide.md).\n',
  'guide.md': '# Guide\n\nSome text about workflows.\n\n```js\nconst step = 1;\n```\n',
  'other.md': '# Other\n\nPlain words.\n',
};

/** Files left beside the outputs or in them by builds that were not alone: half-done writes, locks. */
async function leftovers(root: string): Promise<string[]> {
  const names = await Promise.all(
    ['dist', 'manifest'].map((dir) => readdir(path.join(root, dir), { recursive: true }).catch(() => [])),
  );
  const beside = await readdir(root);
  return [...names.flat(), ...beside].filter((name) => /\.replacing-|\.build-lock/.test(name));
}

/**
 * The lock on a tree's output and cache folders, held by this process as a build that runs long would
 * hold it: a build started meanwhile meets it however fast it would itself have been.
 */
function holdFolders(root: string): Promise<BuildLock> {
  const { outDir, manifestDir, cacheDir } = treeBuildOptions(root);
  return BuildLock.acquire([outDir, manifestDir, cacheDir]);
}

async function expectSameAsCold(root: string): Promise<void> {
  const cold = await makeTree(site);
  expect(messages(await buildTree(cold))).toEqual([]);
  expect(await buildOutput(root)).toEqual(await buildOutput(cold));
}

describe('two builds into the same folders', () => {
  it('refuses the second while the first runs, naming it, and leaves the folders to the first', async () => {
    const root = await makeTree(site);
    const first = await holdFolders(root);
    const second = await startBuild(root).done;
    first.release();
    expect(second.code, second.stdout + second.stderr).toBe(75);
    expect(second.stderr).toMatch(
      new RegExp(`is being written by another build \\(pid ${process.pid}, started .+ ago\\)`),
    );
    expect(second.stderr).toContain('--wait');
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
    expect(await leftovers(root)).toEqual([]);
    const after = await startBuild(root).done;
    expect(after.code, after.stderr).toBe(0);
    await expectSameAsCold(root);
  });

  it('with --wait, builds once the first has finished', async () => {
    const root = await makeTree(site);
    const first = await holdFolders(root);
    const second = startBuild(root, { args: ['--wait'] });
    let ended = false;
    void second.done.finally(() => (ended = true));
    while (!ended && !second.output().includes(`(pid ${process.pid}, started`)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
    first.release();
    const done = await second.done;
    expect(done.stdout).toContain(`(pid ${process.pid}, started`);
    expect(done.code, done.stderr).toBe(0);
    expect(await leftovers(root)).toEqual([]);
    await expectSameAsCold(root);
  });

  it('refuses a build into other output folders that shares the cache folder', async () => {
    const root = await makeTree(site);
    const { cacheDir } = treeBuildOptions(root);
    const other = await BuildLock.acquire([cacheDir]);
    try {
      const refused = buildTree(root);
      await expect(refused).rejects.toThrow(BuildLockedError);
      await expect(refused).rejects.toThrow(`${cacheDir} is being written by another build (pid ${process.pid}`);
      expect(existsSync(path.join(root, 'dist'))).toBe(false);
    } finally {
      other.release();
    }
    expect(messages(await buildTree(root))).toEqual([]);
    expect(await leftovers(root)).toEqual([]);
  });
});

describe('a lock left by a build that is not running', () => {
  it('is taken over, with a note: its process ended, or its pid now belongs to another process', async () => {
    const folder = path.join(await mkdtemp(path.join(tmpdir(), 'docs-lock-')), 'dist');
    const lockFile = `${folder}.build-lock`;
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    // The test runner's own process runs, but it started long before the build that wrote this lock did.
    const reused = { pid: process.ppid, since: 'another start' };
    for (const holder of [{ pid: ended }, reused]) {
      const started = new Date().toISOString();
      await writeFile(lockFile, JSON.stringify({ ...holder, host: hostname(), started, token: 'left' }));
      const log: string[] = [];
      const lock = await BuildLock.acquire([folder], { log: (line) => log.push(line) });
      expect(log).toEqual([expect.stringContaining(`took over ${lockFile} from a build that is no longer running`)]);
      expect(log[0]).toContain(`pid ${holder.pid}`);
      lock.release();
      expect(existsSync(lockFile)).toBe(false);
    }
  });
});
