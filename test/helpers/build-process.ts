import { spawn } from 'node:child_process';
import path from 'node:path';
import { compiledFile } from '../../src/node/compiled';
import { projectRoot } from './tree';

/** How a build run as its own process ended. */
export interface BuildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningBuild {
  pid: number;
  done: Promise<BuildExit>;
  /** What the build has printed so far. */
  output: () => string;
}

/**
 * `npm run build` of `<root>/content` into `<root>/manifest` and `<root>/dist`, with its cache in
 * `<root>/.cache`, as its own process (the compiled command, as npm runs it).
 */
export function startBuild(
  root: string,
  options: { args?: string[]; env?: Record<string, string> } = {},
): RunningBuild {
  const args = [
    compiledFile(projectRoot, 'build'),
    ...['--content', path.join(root, 'content'), '--manifest', path.join(root, 'manifest')],
    ...['--out', path.join(root, 'dist'), '--cache', path.join(root, '.cache')],
    ...(options.args ?? []),
  ];
  // From the project, as npm runs it: the client bundle's file names depend on the working folder.
  const child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, ...options.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<BuildExit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  if (child.pid === undefined) throw new Error('the build process did not start');
  return { pid: child.pid, done, output: () => stdout + stderr };
}

export const runBuild = (root: string, options?: Parameters<typeof startBuild>[1]): Promise<BuildExit> =>
  startBuild(root, options).done;
