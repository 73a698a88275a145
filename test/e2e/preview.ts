import type { AddressInfo } from 'node:net';
import { createSiteServer } from '../../src/node/serve/server';

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
