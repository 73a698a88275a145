import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The browser and hosting tests, run once per server: the global setup reads E2E_SERVER to decide whether it
 * serves the built site with the preview server (src/node/serve) or with nginx and deploy/nginx.conf.
 */
function e2e(name: string, server: 'preview' | 'nginx'): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      include: ['test/e2e/**/*.test.ts'],
      environment: 'node',
      env: { E2E_SERVER: server },
      globalSetup: ['test/e2e/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // One browser per file; files share the built site and the server started in the global setup.
      fileParallelism: true,
      maxWorkers: 2,
    },
  };
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      e2e('e2e', 'preview'),
      e2e('e2e-nginx', 'nginx'),
    ],
  },
});
