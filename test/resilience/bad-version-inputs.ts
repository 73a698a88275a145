import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { BadInput } from './bad-inputs';

/**
 * Bad `versions:` entries of `_site.yaml` (src/node/versions/): each an error at its line, with nothing
 * written. A version's folder is beside the content folder (`../v1/` of the tree).
 */
const HOME = { 'README.md': '# Home\n\nWelcome.\n' };
const V1 = { '../v1/README.md': '# Home v1\n', '../v1/guide.md': '# Guide v1\n' };

/** `_site.yaml` with the current version and the entries given, each a YAML list item. */
const site = (...entries: string[]) =>
  `title: T\nversions:\n  - text: v2\n    current: true\n${entries.map((entry) => `  - ${entry.replaceAll('\n', '\n    ')}\n`).join('')}`;

/** Makes the folder above the content folder a git repository with one commit, tagged v1.0. */
function commitTree(contentDir: string): Promise<void> {
  const root = path.dirname(contentDir);
  const env = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com' };
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      env: { ...env, GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' },
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'docs');
  git('tag', 'v1.0');
  return Promise.resolve();
}

export const BAD_VERSION_INPUTS: BadInput[] = [
  {
    name: 'a version whose content folder does not exist',
    files: { ...HOME, '_site.yaml': site('text: v1\ncontent: ../v9\nroute: /v1/') },
    builds: false,
    expected: [/^_site\.yaml:6:14 version folder \.\.\/v9 does not exist$/],
  },
  {
    name: 'a version whose content folder is inside the current one',
    files: { ...HOME, 'old/README.md': '# Old\n', '_site.yaml': site('text: v1\ncontent: ./old\nroute: /v1/') },
    builds: false,
    expected: [/^_site\.yaml:6:14 version folder \.\/old is inside the current content folder/],
  },
  {
    name: 'two versions naming one content folder',
    files: {
      ...HOME,
      ...V1,
      '_site.yaml': site('text: v1\ncontent: ../v1\nroute: /v1/', 'text: v1.1\ncontent: ../v1/\nroute: /v1.1/'),
    },
    builds: false,
    expected: [/^_site\.yaml:9:14 version folder \.\.\/v1\/ is also version v1's$/],
  },
  {
    name: 'two versions at one route',
    files: {
      ...HOME,
      ...V1,
      '../v0/README.md': '# v0\n',
      '_site.yaml': site('text: v1\ncontent: ../v1\nroute: /old/', 'text: v0\ncontent: ../v0\nroute: /old/'),
    },
    builds: false,
    expected: [/^_site\.yaml:10:12 route \/old\/ is also version v1's \(\/old\/\)/],
  },
  {
    name: 'a version route where a page is',
    files: { ...HOME, ...V1, 'v1/intro.md': '# Intro\n', '_site.yaml': site('text: v1\ncontent: ../v1\nroute: /v1/') },
    builds: false,
    expected: [/^_site\.yaml:7:12 route \/v1\/ is where page v1\/intro\.md is/],
  },
  {
    name: 'a version route where the site keeps its own files',
    files: { ...HOME, ...V1, '_site.yaml': site('text: v1\ncontent: ../v1\nroute: /assets/') },
    builds: false,
    expected: [/^_site\.yaml:7:12 route \/assets\/ is where the site keeps its own files/],
  },
  {
    name: 'a version from a git ref that does not exist',
    files: { ...HOME, '_site.yaml': site('text: v1\ngit: v9.9\nroute: /v1/') },
    prepare: commitTree,
    builds: false,
    expected: [/^_site\.yaml:6:10 git ref v9\.9 does not exist in this repository$/],
  },
  {
    name: 'a version from a git ref without the folder named',
    files: { ...HOME, '_site.yaml': site('text: v1\ngit: v1.0\npath: nowhere\nroute: /v1/') },
    prepare: commitTree,
    builds: false,
    expected: [/^_site\.yaml:7:11 git ref v1\.0 has no folder nowhere$/],
  },
  {
    name: 'a version with both a folder and a git ref, and one without a route',
    files: {
      ...HOME,
      ...V1,
      '_site.yaml': site('text: v1\ncontent: ../v1\ngit: v1.0\nroute: /v1/', 'text: v0\ncontent: ../v1'),
    },
    builds: false,
    expected: [
      /^_site\.yaml:7:10 "versions\.1\.git" a version comes from a folder \(content\) or a git ref \(git\), not both$/,
      /^_site\.yaml:10:14 "versions\.2\.content" a built version needs a route, such as \/v1\/$/,
    ],
  },
];
