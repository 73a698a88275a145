import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

const identity = {
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
};
const git = (root: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: root, env: { ...process.env, ...identity }, stdio: 'ignore' });

describe('a version from a git tag', () => {
  it('is built from the tag without a checkout, the working tree left as it is', async () => {
    const root = await makeTree({
      'README.md': '# Home\n\nThe old home. See [setup](setup.md).\n',
      'setup.md': '# Setup\n\nOld setup, with a [link](/gone/).\n',
    });
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'v1 docs');
    git(root, 'tag', 'v1.0');
    await rm(path.join(root, 'content/setup.md'));
    await writeFile(path.join(root, 'content/README.md'), '# Home\n\nThe new home.\n');
    await writeFile(
      path.join(root, 'content/_site.yaml'),
      'title: T\nversions:\n  - { text: v2, current: true }\n  - { text: v1, git: v1.0, route: /v1/, strict: false }\n',
    );
    const result = await buildTree(root);
    // Its problems are named by the tag and the folder in the repository.
    expect(messages(result)).toEqual(['v1.0:content/setup.md:3:19 warning: broken link "/gone/": no page at /gone/']);
    expect(readFileSync(path.join(root, 'dist/v1/setup/index.html'), 'utf8')).toContain('Old setup');
    expect(readFileSync(path.join(root, 'dist/index.html'), 'utf8')).toContain('The new home');
    // The working tree still has the edits: the tag was read, not checked out.
    expect(readFileSync(path.join(root, 'content/README.md'), 'utf8')).toContain('The new home');

    // A build again reads the tag's files from where the first one put them, and keeps v1's pages.
    const again = await buildTree(root);
    expect(again.ok).toBe(true);
    expect(again.rendered).toBe(0);
  });
});
