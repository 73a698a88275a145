import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSite } from '../../src/node/import/import-site';
import { buildTree, makeTree, messages, projectRoot } from '../helpers/tree';
import { CURRENT_AND_V1 } from '../helpers/versions';
import { hydrated, useBrowser } from './browser';
import { startPreview, type RunningPreview } from './preview';

/**
 * A site whose older version is the VuePress 1 fixture imported as v1 (`strict: false`), in Chromium:
 * readers stay in their version (links, search), the version menu leads to the same page in the other
 * version (by route, by its redirects) or to its home, and an older version says so above each page.
 */
const CURRENT = {
  '_site.yaml': `title: Versioned Docs
siteUrl: https://docs.example.com
${CURRENT_AND_V1}sidebar:
  - text: Guide
    items: [/, /limits/, /plans/]
redirects:
  /pricing/: /plans/
`,
  'README.md': '# Home v2\n\nThe current docs. See the [limits](limits.md).\n',
  'limits.md': '# Limits v2\n\n## Quotas\n\nEvery workflow has a quotavtwo of its own.\n',
  'plans.md': '# Plans\n\nWhat each plan costs.\n',
};

const { open } = useBrowser();
let root = '';
let site: RunningPreview | undefined;
let warnings: string[] = [];

beforeAll(async () => {
  root = await makeTree(CURRENT);
  await importSite({ source: path.join(projectRoot, 'test/fixtures/vuepress1'), out: path.join(root, 'v1') });
  const result = await buildTree(root);
  if (!result.ok) throw new Error(`the versioned site does not build:\n${messages(result).join('\n')}`);
  warnings = messages(result);
  site = await startPreview(path.join(root, 'dist'));
});
afterAll(async () => {
  await site?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

async function visit(route: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const opened = await open(undefined);
  await opened.page.goto(`${site?.url}${route}`);
  await hydrated(opened.page);
  return opened;
}

/** Opens the version menu and follows its entry for `text`, waiting for the page it leads to. */
async function chooseVersion(page: Page, text: string): Promise<string> {
  await page.click('button.version-button');
  const before = page.url();
  await page.locator('#version-list a', { hasText: text }).click();
  await page.waitForURL((url) => url.href !== before);
  await hydrated(page);
  return new URL(page.url()).pathname;
}

/** Searches from the open page and returns the results' routes, once they are drawn; then closes the dialog. */
async function searchFor(page: Page, query: string): Promise<string[]> {
  await page.click('button.search-button');
  await page.locator('.search-dialog input[role="combobox"]').fill(query);
  await page.waitForFunction((q) => {
    const status = document.querySelector('.search-dialog [role="status"]')?.textContent ?? '';
    return document.querySelector<HTMLInputElement>('.search-dialog input')?.value === q && /result/i.test(status);
  }, query);
  const routes = await page
    .locator('.search-hit')
    .evaluateAll((hits) => hits.map((hit) => hit.getAttribute('data-url') ?? ''));
  await page.keyboard.press('Escape');
  await page.locator('.search-dialog').waitFor({ state: 'detached' });
  return routes;
}

describe('a site with an older version built with it', () => {
  it('keeps a v1 reader in v1: its sidebar links navigate within /docs/v1/', async () => {
    const { page, problems } = await visit('/docs/v1/');
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    expect(await page.locator('.version-button').textContent()).toContain('v1');
    await page.click('nav#sidebar a[href="/docs/v1/limits/"]');
    await page.waitForFunction(() => document.querySelector('#main-content h1')?.textContent?.startsWith('Limits'));
    expect(new URL(page.url()).pathname).toBe('/docs/v1/limits/');
    // A client-side navigation, in the same document.
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    const hrefs = await page.locator('nav#sidebar a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.filter((href) => href?.startsWith('/docs/') && !href.startsWith('/docs/v1/'))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('says above an older page which version it is, with a link to the same page in the current one', async () => {
    const { page, problems } = await visit('/docs/v1/limits/');
    const bar = page.locator('.older-version');
    expect(await bar.textContent()).toBe('You are reading the docs of v1, an older version. See this page in v2');
    await bar.locator('a').click();
    await page.waitForURL('**/docs/limits/');
    await hydrated(page);
    expect(await page.locator('#main-content h1').textContent()).toContain('Limits v2');
    expect(await page.locator('.older-version').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('leads through the version menu to the same page, to where a redirect leads, or to the home', async () => {
    const { page, problems } = await visit('/docs/limits/');
    expect(await chooseVersion(page, 'v1')).toBe('/docs/v1/limits/');
    expect(await chooseVersion(page, 'v2')).toBe('/docs/limits/');
    await page.goto(`${site?.url}/docs/v1/pricing/`);
    await hydrated(page);
    // v2 has no /pricing/, and its redirects lead it to /plans/.
    expect(await chooseVersion(page, 'v2')).toBe('/docs/plans/');
    await page.goto(`${site?.url}/docs/v1/cron/`);
    await hydrated(page);
    expect(await chooseVersion(page, 'v2')).toBe('/docs/');
    expect(problems).toEqual([]);
  });

  it('searches only the pages of the version the reader is in', async () => {
    const v1 = await visit('/docs/v1/limits/');
    expect(await searchFor(v1.page, 'inspector')).toContain('/limits/#event--execution-history');
    expect(await searchFor(v1.page, 'quotavtwo')).toEqual([]);
    const searchFiles = (requests: string[]) => requests.filter((url) => /\/assets\/js\/search[./]/.test(url));
    expect(searchFiles(v1.requests).length).toBeGreaterThan(0);
    expect(searchFiles(v1.requests).filter((url) => !url.includes('/docs/v1/'))).toEqual([]);

    const v2 = await visit('/docs/limits/');
    expect(await searchFor(v2.page, 'quotavtwo')).toContain('/limits/#quotas');
    expect(await searchFor(v2.page, 'inspector')).toEqual([]);
    expect(searchFiles(v2.requests).filter((url) => url.includes('/docs/v1/'))).toEqual([]);
  });

  it('lists v2 alone in sitemap.xml and llms.txt, keeps v1 out of search engines, and warns of v1 problems', async () => {
    const sitemap = await readFile(path.join(root, 'dist/sitemap.xml'), 'utf8');
    expect(sitemap).toContain('https://docs.example.com/docs/limits/');
    expect(sitemap).not.toContain('/v1/');
    expect(await readFile(path.join(root, 'dist/llms.txt'), 'utf8')).not.toContain('/v1/');
    const { page } = await visit('/docs/v1/limits/');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
      'https://docs.example.com/docs/v1/limits/',
    );
    // Each of v1's problems is a warning in its own folder.
    expect(warnings.filter((line) => !line.startsWith('../v1/'))).toEqual([]);
  });
});
