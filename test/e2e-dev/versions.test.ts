import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevSession, type DevSession } from '../../src/node/dev/session';
import { CHROMIUM_ARGS, ensureChromium } from '../e2e/chromium';
import { makeTree, projectRoot } from '../helpers/tree';
import { CURRENT_AND_V1 } from '../helpers/versions';

/** The current version (v2) and v1 beside it, with a page each of its own. */
const SITE = {
  '_site.yaml': `title: Versioned Docs\n${CURRENT_AND_V1}`,
  'README.md': '# Home v2\n\nSee the [guide](guide.md).\n',
  'guide.md': '# Guide v2\n\nThe current guide.\n',
  '../v1/_site.yaml': 'title: Old\n',
  '../v1/README.md': '# Home v1\n\nSee the [guide](guide.md).\n',
  '../v1/guide.md': '# Guide v1\n\nThe old guide, uniquely older.\n',
};

const devCache = path.join(projectRoot, 'node_modules/.cache', `docs-dev-versions-${process.pid}`);

/**
 * `npm run dev` on a site with an older version: v1 is built as the session starts and served at its
 * route, in the browser as in a build; the current version is rebuilt live on an edit, and v1 is built
 * again after an edit of its own.
 */
describe('npm run dev with an older version', () => {
  let root = '';
  let session: DevSession | undefined;
  let browser: Browser | undefined;
  const logged: string[] = [];

  beforeAll(async () => {
    root = await makeTree(SITE);
    session = await startDevSession({
      contentDir: path.join(root, 'content'),
      srcDir: path.join(projectRoot, 'src'),
      cacheDir: devCache,
      outDir: path.join(root, 'out'),
      port: 0,
      debounceMs: 20,
      log: (line) => logged.push(line),
    });
    await session.built;
    browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await session?.close();
    await rm(root, { recursive: true, force: true });
    await rm(devCache, { recursive: true, force: true });
  }, 60_000);

  it('serves a v1 page at its route, which the app shows as v1 and leads back to the current version', async () => {
    const url = new URL(session?.url ?? '');
    const answer = await fetch(new URL('/docs/v1/guide/', url), { redirect: 'manual' });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('uniquely older');
    expect(logged.some((line) => line.startsWith('✓ built the older versions (2 pages)'))).toBe(true);

    const page = await (await browser!.newContext()).newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(new URL('/docs/guide/', url).href);
    await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
    await page.click('button.version-button');
    await page.locator('#version-list a', { hasText: 'v1' }).click();
    await page.waitForURL('**/docs/v1/guide/');
    await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
    expect(await page.locator('#main-content h1').textContent()).toContain('Guide v1');
    expect(await page.locator('.version-button').textContent()).toContain('v1');
    await page.locator('.older-version a').click();
    await page.waitForURL('**/docs/guide/');
    expect(problems).toEqual([]);
  });

  it('keeps the current version live: an edit shows at its route, v1 is left as it was', async () => {
    const url = new URL(session?.url ?? '');
    const rebuilt = new Promise<void>((resolve) => session?.onRebuild(() => resolve()));
    const guide = path.join(root, 'content/guide.md');
    await writeFile(guide, (await readFile(guide, 'utf8')).replace('The current guide.', 'The edited guide.'));
    await rebuilt;
    expect(await (await fetch(new URL('/docs/guide/', url))).text()).toContain('The edited guide.');
    expect(await (await fetch(new URL('/docs/v1/guide/', url))).text()).toContain('uniquely older');
  });

  it('builds v1 again after an edit of its own, and its open tab shows it in place', async () => {
    const url = new URL(session?.url ?? '');
    const page = await (await browser!.newContext()).newPage();
    await page.goto(new URL('/docs/v1/guide/', url).href);
    await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
    const guide = path.join(root, 'v1/guide.md');
    await writeFile(guide, (await readFile(guide, 'utf8')).replace('uniquely older', 'edited in v1'));
    await page.waitForFunction(
      () => document.querySelector('#main-content')?.textContent?.includes('edited in v1'),
      undefined,
      { timeout: 30_000 },
    );
    expect(await (await fetch(new URL('/docs/v1/guide/', url))).text()).toContain('edited in v1');
    expect(await (await fetch(new URL('/docs/guide/', url))).text()).toContain('The edited guide.');
  }, 60_000);
});
