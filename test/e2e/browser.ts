import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { CHROMIUM_ARGS } from './chromium';

export interface OpenedPage {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
  /** Every request URL the page made. */
  requests: string[];
}

/** One browser per test file; each test gets a fresh context (its own cache, storage and clock). */
export function useBrowser(): {
  open: (path?: string, options?: BrowserContextOptions) => Promise<OpenedPage>;
  base: () => string;
} {
  let browser: Browser;
  const server = inject('servers')[0];
  if (!server) throw new Error('no server was started by the global setup');
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: inject('chromiumPath'), args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    base: () => server.url,
    open: async (path, options = {}) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => requests.push(r.url()));
      if (path !== undefined) await page.goto(server.url + path);
      return { page, problems, requests };
    },
  };
}

/** Waits until the app has hydrated (the client takes over the prerendered page). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
}
