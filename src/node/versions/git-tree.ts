import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** What `git` answered: its output, or undefined when it failed (no repository, no such ref or path). */
function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'utf8' }, (error, stdout) => resolve(error ? undefined : stdout.trim()));
  });
}

/** The repository a folder is in: its top folder, or undefined outside a git checkout. */
export const repositoryOf = (folder: string): Promise<string | undefined> =>
  git(folder, ['rev-parse', '--show-toplevel']);

/** Whether `ref` names a commit of the repository at `repository`. */
export async function isCommit(repository: string, ref: string): Promise<boolean> {
  // `--end-of-options`: a ref written as `--output=x` is a name, never an option of git's.
  return (
    (await git(repository, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])) !== undefined
  );
}

/** The id of the folder `folder` (relative to the repository's top) at `ref`, or undefined when it has none. */
export async function treeAt(repository: string, ref: string, folder: string): Promise<string | undefined> {
  const spec = `${ref}:${folder.replace(/^\/+|\/+$/g, '')}`;
  const id = await git(repository, ['rev-parse', '--verify', '--quiet', '--end-of-options', spec]);
  if (!id || !/^[0-9a-f]{40,64}$/.test(id)) return undefined;
  // A file of that name is no folder.
  return (await git(repository, ['cat-file', '-t', id])) === 'tree' ? id : undefined;
}

/**
 * The files of the git tree `tree` as a folder under `parent`, named by the tree: read from the repository
 * without a checkout (`git archive`), once for each tree. A tree's files never change, so a version made
 * from a tag is read the first time it is built, and later builds find it, its files' times included, as
 * the render cache and the output ledger left them.
 */
export async function folderOfTree(repository: string, tree: string, parent: string): Promise<string> {
  const folder = path.join(parent, `git-${tree}`);
  if (existsSync(folder)) return folder;
  const partial = `${folder}.reading-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await extract(repository, tree, partial);
    await rename(partial, folder);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
  return folder;
}

/** `git archive <tree> | tar -x`: both must end well. */
function extract(repository: string, tree: string, into: string): Promise<void> {
  const archive = spawn('git', ['archive', '--format=tar', tree], {
    cwd: repository,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tar = spawn('tar', ['-x', '-C', into], { stdio: ['pipe', 'ignore', 'pipe'] });
  archive.stdout.pipe(tar.stdin);
  const ended = (child: ReturnType<typeof spawn>, name: string) =>
    new Promise<void>((resolve, reject) => {
      let said = '';
      child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${name} failed: ${said.trim()}`))));
    });
  return Promise.all([ended(archive, 'git archive'), ended(tar, 'tar')]).then(() => undefined);
}
