import { spawn } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../helpers/tree';

export interface PreviewProcess {
  /** The address and base the server printed, e.g. `http://127.0.0.1:41234/docs/`. */
  url: string;
  /** Everything the server wrote to standard error so far. */
  errors: () => string;
  /** The exit code once the process ended by itself; undefined while it runs. */
  exitCode: () => number | null | undefined;
  stop: () => Promise<void>;
}

/**
 * `npm run preview -- <distDir>` as a process of its own, on a free port of 127.0.0.1: what kills the
 * server kills this process, where it shows as an exit, not as an error inside the test runner.
 */
export function startPreviewProcess(distDir: string): Promise<PreviewProcess> {
  const child = spawn(
    path.join(projectRoot, 'node_modules/.bin/tsx'),
    [path.join(projectRoot, 'scripts/serve.ts'), distDir],
    { cwd: projectRoot, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let exit: number | null | undefined;
  const ended = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exit = code ?? (signal ? -1 : null);
      resolve();
    }),
  );
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('the preview server printed no address within 30 s')), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${error.message}\n${stdout}${stderr}`));
    };
    void ended.then(() => fail(new Error(`the preview server exited (${exit}) before it served`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stdout)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        errors: () => stderr,
        exitCode: () => exit,
        stop: async () => {
          if (exit === undefined) child.kill();
          await ended;
        },
      });
    });
  });
}
