import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSite } from '../../src/node/import/import-site';
import { buildTree, messages, projectRoot } from '../helpers/tree';
import { hydrated, useBrowser } from './browser';
import { startPreview, type RunningPreview } from './preview';

/**
 * The VuePress 1 fixture, imported and built, in Chromium: what only a browser shows. The video player
 * keeps its place at the column's width in 16:9 and the Content-Security-Policy lets it load (its frame-src
 * comes from the same embeds list), while a frame from any other origin is refused; the page footer and
 * header links hydrate without a mismatch. YouTube is not reachable from the test machine, so its answer
 * is played by the browser's request routing.
 */
const { open } = useBrowser();
let root = '';
let site: RunningPreview | undefined;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'docs-imported-'));
  await importSite({ source: path.join(projectRoot, 'test/fixtures/vuepress1'), out: path.join(root, 'content') });
  const result = await buildTree(root);
  if (!result.ok) throw new Error(`the imported fixture does not build:\n${messages(result).join('\n')}`);
  site = await startPreview(path.join(root, 'dist'));
});
afterAll(async () => {
  await site?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('an imported VuePress site in the browser', () => {
  it('shows the video as a 16:9 player the width of the column, which the CSP lets load', async () => {
    const { page, problems } = await open(undefined);
    await page.route('https://www.youtube.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title><p>Video player</p>' }),
    );
    await page.goto(`${site?.url}/docs/workflows/`);
    await hydrated(page);
    const player = page.locator('#page-content iframe.embed');
    await player.scrollIntoViewIfNeeded();
    const box = await player.boundingBox();
    const column = await page.locator('#page-content').boundingBox();
    expect(box && column && Math.round(box.width)).toBe(column && Math.round(column.width));
    expect(box && Math.abs(box.height - (box.width * 9) / 16)).toBeLessThan(1.5);
    const frame = page.frameLocator('#page-content iframe.embed');
    await expect.poll(() => frame.locator('p').textContent()).toBe('Video player');
    expect(problems).toEqual([]);
  });

  it('refuses a frame from a domain that is not in the embeds list', async () => {
    const { page } = await open(undefined);
    await page.goto(`${site?.url}/docs/workflows/`);
    await hydrated(page);
    const blocked = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) =>
            resolve(`${e.effectiveDirective} ${e.blockedURI}`),
          );
          const frame = document.createElement('iframe');
          frame.src = 'https://maps.example.com/embed';
          document.body.append(frame);
        }),
    );
    // Cross-origin, the report names the origin only.
    expect(blocked).toBe('frame-src https://maps.example.com');
  });

  it('hydrates the header links and the edit link without a mismatch', async () => {
    const { page, problems } = await open(undefined);
    await page.goto(`${site?.url}/docs/limits/`);
    await hydrated(page);
    expect(await page.locator('nav.header-nav a').allTextContents()).toEqual(['Limits', 'Status']);
    expect(await page.getAttribute('a.edit-link', 'href')).toBe(
      'https://github.com/example/platform-docs/edit/main/docs/limits.md',
    );
    await page.click('nav#sidebar a[href="/docs/workflows/"]');
    await page.waitForFunction(() => document.querySelector('#main-content h1')?.textContent?.startsWith('Workflows'));
    expect(await page.getAttribute('a.edit-link', 'href')).toBe(
      'https://github.com/example/platform-docs/edit/main/docs/workflows/README.md',
    );
    expect(problems).toEqual([]);
  });
});
