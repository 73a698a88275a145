import { describe, expect, it } from 'vitest';
import { pngImage } from '../helpers/png';
import { hydrated, layoutShifts, recordLayoutShifts, useBrowser } from './browser';
import { useServedTree } from './preview';
import { appCase } from './server-cases';

/**
 * A page of screenshots, as a migrated site has them: the text never moves while they load (each image's
 * box is reserved from the size the build read), and a screenshot wider than the column opens at full
 * size over the page. Under nginx, the cases that load a screenshot and a linked file (their content types).
 */
const screens = Array.from({ length: 6 }, (_, i) => [`guide/screen-${i}.png`, pngImage(1600, 1000 + i * 40)]);
const site = useServedTree({
  'README.md': '# Home\n\nSee [the guide](/guide/).\n',
  'guide/README.md': [
    '# Guide',
    '',
    '![The workflow editor](./screen-0.png)',
    '',
    'The editor shows each step of a workflow, one under the other.',
    '',
    ...screens
      .slice(1)
      .flatMap(([name], i) => [
        `## Step ${i + 1}`,
        '',
        `Step ${i + 1} of setting a workflow up, as the editor shows it.`,
        '',
        `![Step ${i + 1} in the editor](./${String(name).replace('guide/', '')})`,
        '',
      ]),
    'The logo at its own size: ![Logo](./logo.png). Download [the checklist](./checklist.pdf).',
    '',
    '## Sizes written by hand',
    '',
    // As imported sites write them: one side only, in pixels, a share of the column or another unit.
    ...['width="300"', 'width="50%"', 'height="120"', 'width="30em"'].flatMap((sides) => [
      `<img src="./screen-1.png" ${sides} alt="Step 1 at ${sides.replace(/"/g, '')}">`,
      '',
      'The step once more, at the size its writer gave it.',
      '',
    ]),
  ].join('\n'),
  'guide/logo.png': pngImage(120, 40),
  'guide/checklist.pdf': '%PDF-1.4\n% a checklist\n',
  ...Object.fromEntries(screens),
});
const { open } = useBrowser();

describe('images on a page', () => {
  appCase('reserve their boxes: nothing shifts while a page of screenshots loads and is scrolled', async () => {
    const { page, problems } = await open(undefined, { viewport: { width: 1280, height: 800 } });
    // Images arrive late, as on a slow connection, so any box left unreserved would push the text.
    await page.route('**/assets/img/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    await recordLayoutShifts(page);
    await page.goto(`${site.url}/docs/guide/`);
    await hydrated(page);
    const images = page.locator('#page-content img');
    expect(await images.count()).toBe(11);
    expect(await images.first().getAttribute('loading')).toBeNull();
    expect(await images.nth(1).getAttribute('loading')).toBe('lazy');
    for (let i = 0; i < 11; i++) {
      await images.nth(i).scrollIntoViewIfNeeded();
      await expect.poll(() => images.nth(i).evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
    }
    const box = await images.first().boundingBox();
    const column = await page.locator('#page-content').boundingBox();
    // Scaled to the column at the screenshot's own proportions.
    expect(box && column && Math.round(box.width)).toBe(column && Math.round(column.width));
    expect(box && Math.abs(box.height - (box.width * 1000) / 1600)).toBeLessThan(1.5);
    // A browser reads `30em` as 30 pixels, as the build did when it gave the image its height.
    const em = (await page.getByAltText('Step 1 at width=30em').boundingBox())!;
    expect([em.width, Math.round(em.height)]).toEqual([30, Math.round((30 * 1040) / 1600)]);
    expect(await layoutShifts(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows a wide screenshot at full size on a click, and Escape gives the page back', async () => {
    const { page, problems } = await open(undefined, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${site.url}/docs/guide/`);
    await hydrated(page);
    const link = page.locator('#page-content a.zoom').first();
    await link.click();
    const shown = page.locator('dialog.zoom-dialog img');
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1600);
    expect(await page.locator('dialog.zoom-dialog').getAttribute('aria-label')).toBe('The workflow editor, full size');
    expect(new URL(page.url()).pathname).toBe('/docs/guide/');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('dialog.zoom-dialog').count()).toBe(0);
    // Focus is back on the screenshot's link, where the reader was.
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('zoom');
    // A small image is shown at its own size, with nothing to open.
    expect(await page.locator('#page-content a.zoom img[alt="Logo"]').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('loads a linked file as itself, not as a page of the app', async () => {
    const { page } = await open(undefined);
    await page.goto(`${site.url}/docs/guide/`);
    await hydrated(page);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/assets/files/checklist.')),
      page.locator('#page-content a', { hasText: 'the checklist' }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(await page.locator('#main-content h1').count()).toBe(0);
  });
});
