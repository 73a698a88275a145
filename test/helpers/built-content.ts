import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { RUN_FOLDER } from '../temp-setup';
import { buildTree, makeTree, messages, projectRoot } from './tree';

/** Where a run builds content/ once for its browser tests (test/e2e/global-setup.ts), and what it writes last. */
export const RUN_SITE = {
  folder: 'site',
  /** The build's diagnostics, formatted: written when the build has finished, before the marker file. */
  messages: 'build-messages.json',
  /** Written last: while it is missing, there is no finished build. */
  finished: 'outside-dist.txt',
} as const;

export interface BuiltContent {
  /** Holds the build's manifest/ and dist/. */
  root: string;
  /** Whether the build finished without an error. */
  ok: boolean;
  /** The build's diagnostics, formatted. */
  messages: string[];
  /** Removes the build if it was made for the caller; the run's own build stays for the files that share it. */
  release: () => Promise<void>;
}

/**
 * The repository's content/ built strictly with the real build, for tests that read what the build made of
 * it (never write to it). A run whose projects serve the site to browser tests has built it already, once
 * (test/e2e/global-setup.ts, before any test file starts): that build is read. A file run without them
 * builds its own, as it would have anyway.
 */
export async function builtContent(): Promise<BuiltContent> {
  const runFolder = process.env[RUN_FOLDER];
  const shared = runFolder ? path.join(runFolder, RUN_SITE.folder) : '';
  if (shared && existsSync(path.join(shared, RUN_SITE.finished))) {
    const lines = JSON.parse(await readFile(path.join(shared, RUN_SITE.messages), 'utf8')) as string[];
    return { root: shared, ok: true, messages: lines, release: async () => {} };
  }
  return builtTree(await makeTree({}), { contentDir: path.join(projectRoot, 'content') });
}

/** Builds `<root>/content` (or `contentDir`) into `root` with the real build, strictly; released, `root` goes. */
export async function builtTree(root: string, options: { contentDir?: string } = {}): Promise<BuiltContent> {
  const result = await buildTree(root, options);
  return {
    root,
    ok: result.ok,
    messages: messages(result),
    release: () => rm(root, { recursive: true, force: true }),
  };
}
