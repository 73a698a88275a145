import { readFileSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, copyOfSrc, messages, projectRoot } from '../helpers/tree';
import { hydrated, searchDialogChunk, useBrowser } from './browser';
import { useServedTree } from './preview';

/**
 * A rebuild while a tab is open, as a writer's `npm run build` into the folder `npm start` serves: the
 * build updates dist/ in place, and the open tab, whose documents name no deployment, finds the new
 * deployment through version.json when it follows a link to the page that changed.
 */
const SITE = {
  '_site.yaml': 'title: Rebuild Docs\nsidebar:\n  - text: Guide\n    items: [/, /guide/, /other/]\n',
  'README.md': '# Home\n\nStart with [the guide](./guide.md) or [the other page](./other.md).\n',
  'guide.md': '# Guide\n\nThe first version of the guide.\n',
  'other.md': '# Other\n\nA page the rebuild leaves alone.\n',
};

const { open } = useBrowser();
const site = useServedTree(SITE);

describe('a rebuild while a tab is open', () => {
  it('leaves the other pages’ documents alone, and the open tab shows the changed page', async () => {
    const { page, problems } = await open(undefined);
    // The guide's fragment is kept from the tab until the rebuild is done, so that prefetching the links in
    // view cannot load the first version before the click.
    const guideFragment = /\/assets\/js\/page\.guide\.[0-9a-f]{8}\.html/;
    await page.route(guideFragment, (route) => route.abort('connectionrefused'));
    await page.goto(`${site.url}/docs/`);
    await hydrated(page);
    const { root } = site;
    const other = path.join(root, 'dist/other/index.html');
    const before = { stats: statSync(other), html: readFileSync(other, 'utf8') };

    await writeFile(path.join(root, 'content/guide.md'), '# Guide\n\nThe second version of the guide.\n');
    const rebuilt = await buildTree(root);
    expect(messages(rebuilt)).toEqual([]);
    expect(rebuilt.rendered).toBe(1);
    // The other page's document is the very file the first build wrote.
    const after = statSync(other);
    expect([after.ino, after.mtimeMs]).toEqual([before.stats.ino, before.stats.mtimeMs]);
    expect(readFileSync(other, 'utf8')).toBe(before.html);

    await page.unroute(guideFragment);
    // The tab still runs the first deployment: the guide's old fragment is gone, and the link finds the
    // new deployment through version.json, without a reload.
    await page.evaluate(() => ((window as unknown as { beforeRebuild: boolean }).beforeRebuild = true));
    await page.click('nav#sidebar a[href="/docs/guide/"]');
    await page.getByText('The second version of the guide.').waitFor();
    expect(await page.evaluate(() => (window as unknown as { beforeRebuild?: boolean }).beforeRebuild)).toBe(true);
    // And a page the rebuild left alone still opens from the new deployment's data.
    await page.click('nav#sidebar a[href="/docs/other/"]');
    await page.getByText('A page the rebuild leaves alone.').waitFor();
    expect(problems).toEqual([]);
  });
});

/**
 * A deploy that changed the app: its script chunks have new names, and the old ones are gone. The open
 * tab's app can only load its own; it learns from version.json that another app replaced it, and moves
 * onto it, where the reader was and with the search they opened.
 */
const APP_SITE = {
  '_site.yaml': 'title: App Deploy Docs\n',
  'README.md': `# Home\n\n${Array.from({ length: 80 }, (_, i) => `Paragraph ${i} about webhooks and triggers.`).join('\n\n')}\n`,
  'webhooks.md': '# Webhooks\n\nA webhook starts a workflow when an HTTP request arrives.\n',
};

describe('a deploy that changed the app while a tab is open', () => {
  const appSite = useServedTree(APP_SITE);

  it('opens search from the new app, where the reader was, without a manual reload', async () => {
    const { page } = await open(undefined);
    await page.goto(`${appSite.url}/docs/`);
    await hydrated(page);
    const oldChunk = await searchDialogChunk(page);
    const scrolled = await page.evaluate(() => {
      window.scrollTo(0, 600);
      return window.scrollY;
    });
    expect(scrolled).toBe(600);

    // The same site, built by an app whose search dialog says something else.
    const dialogSource = await readFile(path.join(projectRoot, 'src/client/search/SearchDialog.tsx'), 'utf8');
    expect(dialogSource).toContain('placeholder="Search the docs"');
    const changed = await copyOfSrc({
      'client/search/SearchDialog.tsx': dialogSource.replace(
        'placeholder="Search the docs"',
        'placeholder="Search the new docs"',
      ),
    });
    const rebuilt = await buildTree(appSite.root, { srcDir: path.join(changed, 'src') });
    expect(messages(rebuilt)).toEqual([]);
    expect((await page.request.get(oldChunk)).status()).toBe(404);

    // The reader's shortcut, which leaves the page where it is (a click would scroll the button into view).
    await page.keyboard.press('/');
    const input = page.locator('.search-dialog input[role="combobox"]');
    await input.waitFor();
    expect(await input.getAttribute('placeholder')).toBe('Search the new docs');
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    await input.fill('webhook');
    await page.locator('.search-hit', { hasText: 'A webhook starts a workflow' }).first().waitFor();
    expect(await page.locator('.chunk-error').count()).toBe(0);
  });
});
