import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from '../../src/node/build';
import { formatDiagnostic } from '../../src/node/diagnostics';
import { createSiteServer } from '../../src/node/serve/server';
import { ensureChromium } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
    distDir: string;
    servers: { name: string; url: string }[];
  }
}

const root = path.resolve(__dirname, '../..');

/** Builds the real site once, serves it, and hands the browser path and URLs to every test file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromiumPath = ensureChromium();
  const work = await mkdtemp(path.join(tmpdir(), 'docs-e2e-'));
  const distDir = path.join(work, 'dist');
  const result = await build({
    contentDir: path.join(root, 'content'),
    manifestDir: path.join(work, 'manifest'),
    outDir: distDir,
    strict: true,
    cacheDir: path.join(root, 'node_modules/.cache/docs-build'),
    srcDir: path.join(root, 'src'),
  });
  if (!result.ok) throw new Error(`the site does not build:\n${result.diagnostics.map(formatDiagnostic).join('\n')}`);

  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('chromiumPath', chromiumPath);
  project.provide('distDir', distDir);
  project.provide('servers', [{ name: 'preview', url: `http://127.0.0.1:${port}` }]);
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}
