import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, messages } from '../helpers/tree';
import { hydrated, layoutShifts, recordLayoutShifts, useBrowser } from './browser';
import { useServedTree } from './preview';
import { appCase } from './server-cases';

/**
 * The site-wide announcement: in every prerendered document, so nothing moves when the app starts;
 * dismissed once, it stays hidden before the first paint, until an announcement with a new id.
 * Under nginx, the case that reloads a rebuilt site (the HTML must not be served from a cache).
 */
const siteYaml = (id: string) =>
  [
    'title: Docs',
    'announcement:',
    `  id: ${id}`,
    '  text: The **new editor** is here, with `$.flow` steps',
    '  link: /guide/',
    '',
  ].join('\n');
const site = useServedTree({
  '_site.yaml': siteYaml('editor-launch'),
  'README.md': '# Home\n\nSee [the guide](/guide/).\n',
  'guide/README.md': '# Guide\n\nThe guide.\n',
});
const { open } = useBrowser();

describe('the announcement bar', () => {
  appCase('is in the prerendered document, links where it says, and shifts nothing as the app starts', async () => {
    const html = await (await fetch(`${site.url}/docs/guide/`)).text();
    expect(html).toContain('<strong>new editor</strong>');
    const { page, problems } = await open(undefined);
    await recordLayoutShifts(page);
    await page.goto(`${site.url}/docs/`);
    await hydrated(page);
    const bar = page.getByRole('complementary', { name: 'Announcement' });
    await expect.poll(() => bar.isVisible()).toBe(true);
    expect(await bar.locator('a').getAttribute('href')).toBe('/docs/guide/');
    expect(await layoutShifts(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  appCase('stays dismissed across pages and reloads, without a flash before the app starts', async () => {
    const { page, problems } = await open(undefined);
    await page.goto(`${site.url}/docs/`);
    await hydrated(page);
    await page.getByRole('button', { name: 'Dismiss announcement' }).click();
    expect(await page.locator('.announcement').isVisible()).toBe(false);
    // The app's own scripts never arrive: what hides the bar is the boot script, before the first paint.
    await page.route('**/assets/js/entry.*', (route) => route.abort());
    await page.goto(`${site.url}/docs/guide/`);
    await page.waitForLoadState('load');
    expect(await page.evaluate(() => document.documentElement.dataset['announcement'])).toBe('dismissed');
    expect(await page.locator('.announcement').isVisible()).toBe(false);
    expect(problems.filter((p) => !p.includes('entry.'))).toEqual([]);
  });

  it('shows again when the announcement has a new id', async () => {
    const { page } = await open(undefined);
    await page.goto(`${site.url}/docs/`);
    await hydrated(page);
    await page.getByRole('button', { name: 'Dismiss announcement' }).click();
    await writeFile(path.join(site.root, 'content/_site.yaml'), siteYaml('pricing-update'));
    const rebuilt = await buildTree(site.root);
    expect(messages(rebuilt)).toEqual([]);
    expect(await readFile(path.join(site.root, 'dist/index.html'), 'utf8')).toContain(
      'data-announcement="pricing-update"',
    );
    await page.goto(`${site.url}/docs/`);
    await hydrated(page);
    expect(await page.locator('.announcement').isVisible()).toBe(true);
  });
});
