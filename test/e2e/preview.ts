import { chmod, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createSiteServer } from '../../src/node/serve/server';
import { buildTree, makeTree, messages, projectRoot } from '../helpers/tree';
import { ensureNginx, startNginx } from './nginx';

export interface RunningPreview {
  url: string;
  stop: () => Promise<void>;
}

/** Serves a built dist/ with the preview server on a free port of 127.0.0.1. */
export async function startPreview(distDir: string): Promise<RunningPreview> {
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Serves a built dist/ with the server of the test project: nginx with deploy/nginx.conf in `e2e-nginx`
 * (E2E_SERVER in vitest.config.ts), else the preview server.
 */
async function serve(root: string): Promise<RunningPreview> {
  const distDir = path.join(root, 'dist');
  if (process.env['E2E_SERVER'] !== 'nginx') return startPreview(distDir);
  // nginx's unprivileged workers read the site; mkdtemp made the tree's folder private.
  await chmod(root, 0o755);
  const template = await readFile(path.join(projectRoot, 'deploy/nginx.conf'), 'utf8');
  return startNginx({ nginx: ensureNginx(), template, distDir });
}

/**
 * Builds a temporary content tree with the real build and serves its dist/ (with the test project's
 * server) for the tests of one file or describe block, removing both afterwards. `site.url` (and `site.root`, the tree's folder, for a test that
 * builds it again) is set once the block's hooks have run. A build that fails, or that warns unless
 * `warnings` is true, stops the block with the build's messages.
 */
export function useServedTree(
  files: Record<string, string | Uint8Array>,
  { warnings = false }: { warnings?: boolean } = {},
): { url: string; root: string } {
  const site = { url: '', root: '' };
  let root = '';
  let running: RunningPreview | undefined;
  beforeAll(async () => {
    root = await makeTree(files);
    site.root = root;
    const result = await buildTree(root);
    const lines = messages(result);
    if (!result.ok || (!warnings && lines.length > 0))
      throw new Error(`the test tree does not build cleanly:\n${lines.join('\n')}`);
    running = await serve(root);
    site.url = running.url;
  });
  afterAll(async () => {
    await running?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });
  return site;
}
