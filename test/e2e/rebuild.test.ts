import { readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, messages } from '../helpers/tree';
import { hydrated, useBrowser } from './browser';
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
