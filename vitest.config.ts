import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import HeadStartSequencer from './test/head-start-sequencer.js';

const NGINX_FILES = [
  'hosting',
  'first-load',
  'images',
  'announcement',
  'feedback',
  'api-reference',
  'math',
  'version-redirects',
];

/**
 * `npm test` runs the unit, resilience and browser projects in one run, as one group sharing these workers
 * (vitest requires one count per group), so that one project's set-up or last slow file overlaps another's
 * files instead of leaving a core idle; one file a core, as timed browser checks (a tap at the first
 * paint, a fetch counted during a navigation) need the core their browser runs on. The load run comes
 * after, alone.
 */
const SHARED_WORKERS = 2;
const TOGETHER = { groupOrder: 0 };
const ALONE = { groupOrder: 1 };

/**
 * The browser and hosting tests, run once per server: the global setup reads E2E_SERVER to decide whether it
 * serves the built site with the preview server (src/node/serve) or with nginx and deploy/nginx.conf.
 */
function e2e(name: string, server: 'preview' | 'nginx'): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      // The app behaves the same whatever serves it; under nginx run the files with cases whose outcome
      // depends on the server: status codes, headers, content types, redirects and the 404 page. Their other
      // cases are `appCase`s (test/e2e/server-cases.ts), run under the preview server only. Both servers send
      // the same CSP (test/unit/node/serve/site-analytics.test.ts compares them); faults are injected in the
      // browser.
      include: server === 'nginx' ? NGINX_FILES.map((name) => `test/e2e/${name}.test.ts`) : ['test/e2e/**/*.test.ts'],
      environment: 'node',
      env: { E2E_SERVER: server },
      globalSetup: ['test/temp-setup.ts', 'test/compile-setup.ts', 'test/e2e/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // One browser per file; files share the built site and the server started in the global setup.
      fileParallelism: true,
      maxWorkers: SHARED_WORKERS,
      sequence: TOGETHER,
      // The files of a worker share its imported modules (playwright-core, the helpers): none keeps state.
      isolate: false,
    },
  };
}

export default defineConfig({
  test: {
    // The longest files first, cache or no cache (test/head-start-sequencer.ts).
    sequence: { sequencer: HeadStartSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          globalSetup: ['test/temp-setup.ts', 'test/compile-setup.ts'],
          // test/e2e-dev: npm run dev in Chromium (the dev server on port 0 over a temporary tree).
          include: ['test/unit/**/*.test.{ts,tsx}', 'test/e2e-dev/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // The files of a worker share its imported modules (shiki's grammars, the build's code): they are
          // loaded once a worker, and no module of the build keeps state between builds.
          isolate: false,
          // Many of these files wait on a build or a browser in another process.
          maxWorkers: SHARED_WORKERS,
          sequence: TOGETHER,
        },
      },
      e2e('e2e', 'preview'),
      {
        // Faults, bad input and hostile requests, injected for real: builds, a browser and a process of
        // the preview server. Two files at a time: most of it waits on a browser or a child process.
        test: {
          name: 'resilience',
          include: ['test/resilience/**/*.test.ts'],
          // The dependency audit asks the registry's advisory service: its own command (npm run test:audit).
          // The load run must have the machine to itself: its own project, run after this one.
          exclude: ['test/resilience/audit.test.ts', 'test/resilience/load.test.ts'],
          environment: 'node',
          env: { E2E_SERVER: 'preview' },
          // The real site, built and served once for the files that need it (the CSP walk, the faults).
          globalSetup: ['test/temp-setup.ts', 'test/compile-setup.ts', 'test/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: true,
          maxWorkers: SHARED_WORKERS,
          sequence: TOGETHER,
          // The fault matrix's cases, concurrent within each of its two files (test/resilience/fault-matrix.ts).
          maxConcurrency: 3,
        },
      },
      {
        // The bounded load run against the preview server, alone on the machine.
        test: {
          name: 'resilience-load',
          include: ['test/resilience/load.test.ts'],
          environment: 'node',
          env: { E2E_SERVER: 'preview' },
          globalSetup: ['test/temp-setup.ts', 'test/compile-setup.ts', 'test/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          sequence: ALONE,
        },
      },
      e2e('e2e-nginx', 'nginx'),
      {
        // A 10,000-page tree of real pages, built once by its global setup, in Chromium.
        test: {
          name: 'scale',
          include: ['test/scale/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/temp-setup.ts', 'test/compile-setup.ts', 'test/scale/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'audit',
          include: ['test/resilience/audit.test.ts'],
          environment: 'node',
          globalSetup: ['test/temp-setup.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
