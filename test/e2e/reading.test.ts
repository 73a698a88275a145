import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shardUrl, type RouteShard } from '../../src/shared/site-data';
import type { Manifest } from '../../src/shared/types';
import { holdBack, hydrated, useBrowser } from './browser';

const { open, base } = useBrowser();

describe('search results are links', () => {
  it('carry the canonical URL, and a middle-click opens the section in a new tab', async () => {
    const { page, problems } = await open('/docs/limits/');
    await hydrated(page);
    await page.keyboard.press('/');
    await page.locator('.search-dialog input').fill('pagination');
    const hit = page.locator('a.search-hit[data-url="/api/rest/#pagination"]');
    await hit.waitFor();
    expect(await hit.getAttribute('href')).toBe('/docs/api/rest/#pagination');
    expect(await hit.getAttribute('role')).toBe('option');

    const [tab] = await Promise.all([page.context().waitForEvent('page'), hit.click({ button: 'middle' })]);
    await tab.waitForLoadState('domcontentloaded');
    expect(new URL(tab.url()).pathname + new URL(tab.url()).hash).toBe('/docs/api/rest/#pagination');
    await tab.waitForFunction(() => {
      const box = document.getElementById('pagination')?.getBoundingClientRect();
      return !!box && box.top >= 0 && box.bottom <= window.innerHeight;
    });
    // The first tab stays where it was, its dialog still open on the same results.
    expect(new URL(page.url()).pathname).toBe('/docs/limits/');
    expect(await page.locator('.search-dialog').count()).toBe(1);
    expect(problems).toEqual([]);
  });
});

describe('before the app has started', () => {
  it('a scroll to a heading sets the hash once the page is ready', async () => {
    const { page } = await open();
    const release = await holdBack(page, /\/assets\/js\/manifest\.[0-9a-f]+\.json$/);
    // The stylesheet in place first (the app, waiting for its data, has not started): a scroll made
    // before it applies lands elsewhere once the page is laid out again.
    await page.goto(`${base()}/docs/limits/`, { waitUntil: 'load' });
    expect(await page.evaluate(() => document.documentElement.dataset['hydrated'])).toBeUndefined();
    await page.evaluate(() => {
      const top = document.getElementById('memory')!.getBoundingClientRect().top + window.scrollY;
      window.scrollTo(0, top - 40);
    });
    release();
    await hydrated(page);
    await page.waitForFunction(() => location.hash === '#memory', undefined, { timeout: 5000 });
  });

  it('the first search shortcut opens search', async () => {
    for (const key of ['/', 'Control+k']) {
      const { page } = await open();
      const release = await holdBack(page, /\/assets\/js\/entry\.[A-Z0-9]+\.js$/);
      // The app's module script holds back DOMContentLoaded; the boot script has run once the page is parsed.
      await page.goto(`${base()}/docs/limits/`, { waitUntil: 'commit' });
      await page.waitForSelector('#page-content', { state: 'attached' });
      await page.keyboard.press(key);
      release();
      await page.locator('.search-dialog input[role="combobox"]').waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
      // The key was the shortcut, not text: the field starts empty.
      expect(await page.locator('.search-dialog input').inputValue()).toBe('');
      await page.context().close();
    }
  });
});

describe('the in-page table of contents', () => {
  it('is hidden beside the side column and a folded "On this page" block on a phone', async () => {
    const wide = (await open('/docs/limits/', { viewport: { width: 1440, height: 900 } })).page;
    expect(await wide.locator('.content .table-of-contents').count()).toBe(1);
    expect(await wide.locator('.content .table-of-contents').isVisible()).toBe(false);
    expect(await wide.locator('aside.toc').isVisible()).toBe(true);

    const phone = (await open('/docs/limits/', { viewport: { width: 390, height: 844 }, hasTouch: true })).page;
    await hydrated(phone);
    const block = phone.locator('.content .table-of-contents');
    expect(await block.isVisible()).toBe(true);
    expect(await phone.locator('aside.toc').isVisible()).toBe(false);
    expect(await block.locator('summary').textContent()).toBe('On this page');
    const link = block.locator('a[href="#memory"]');
    expect(await link.isVisible()).toBe(false);
    await block.locator('summary').click();
    expect(await link.isVisible()).toBe(true);
    expect(await link.evaluate((a) => getComputedStyle(a).textDecorationLine)).toBe('none');
    await link.click();
    await phone.waitForFunction(() => location.hash === '#memory');
  });
});

describe('code groups', () => {
  const selectedTab = (page: Page, group: number) =>
    page.locator('.content .code-group').nth(group).locator('[role="tab"][aria-selected="true"]').textContent();
  const visiblePanels = (page: Page, group: number) =>
    page
      .locator('.content .code-group')
      .nth(group)
      .locator('[role="tabpanel"]')
      .evaluateAll((panels) => panels.filter((p) => !(p as HTMLElement).hidden).map((p) => p.id));

  it('read without JavaScript: the first tab is shown, the others hidden', async () => {
    const { page } = await open('/docs/code/', { javaScriptEnabled: false });
    expect(await selectedTab(page, 0)).toBe('Node.js');
    expect(await visiblePanels(page, 0)).toEqual(['code-group-1-panel-1']);
    expect(await page.locator('#code-group-1-panel-1').isVisible()).toBe(true);
    expect(await page.locator('#code-group-1-panel-2').isVisible()).toBe(false);
  });

  it('follow the WAI-ARIA tabs keyboard model', async () => {
    const { page } = await open('/docs/code/');
    await hydrated(page);
    const tab = (name: string) => page.locator('.code-group').first().getByRole('tab', { name });
    await tab('Node.js').focus();
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Python');
    expect(await selectedTab(page, 0)).toBe('Python');
    expect(await visiblePanels(page, 0)).toEqual(['code-group-1-panel-2']);
    expect(await tab('Python').getAttribute('tabindex')).toBe('0');
    expect(await tab('Node.js').getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Bash');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Node.js');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('Bash');
    await page.keyboard.press('Home');
    expect(await focused()).toBe('Node.js');
    expect(await visiblePanels(page, 0)).toEqual(['code-group-1-panel-1']);
    // Tab leaves the tab list for the panel's content (the code block's own controls).
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role="tabpanel"]')?.id)).toBe(
      'code-group-1-panel-1',
    );
  });

  it('sync groups with the same labels and remember the choice on other pages', async () => {
    const { page } = await open('/docs/code/');
    await hydrated(page);
    await page.locator('.code-group').first().getByRole('tab', { name: 'Go' }).click();
    expect(await selectedTab(page, 0)).toBe('Go');
    expect(await selectedTab(page, 1)).toBe('Go');

    // A client-side navigation to a page with a group of the same labels.
    await page.evaluate(() => {
      const a = Object.assign(document.createElement('a'), { href: '/docs/workflows/steps/' });
      document.querySelector('#page-content')?.append(a);
      a.click();
    });
    await page.waitForFunction(() => location.pathname === '/docs/workflows/steps/');
    await page.locator('.content .code-group').first().waitFor();
    expect(await selectedTab(page, 0)).toBe('Go');

    // A full page load later; this group has no Go tab, so the choice made there holds.
    await page.goto(`${base()}/docs/workflows/events/cold-starts/`);
    await hydrated(page);
    expect(await selectedTab(page, 0)).toBe('Node.js');
    await page.locator('.code-group').first().getByRole('tab', { name: 'Python' }).click();
    await page.goto(`${base()}/docs/code/`);
    await hydrated(page);
    expect(await selectedTab(page, 0)).toBe('Python');
    expect(await selectedTab(page, 1)).toBe('Python');
  });
});

describe('pages for AI assistants', () => {
  it('llms.txt lists every page with its title and URL, and each page has a markdown twin', async () => {
    const { page } = await open('/docs/limits/');
    // Every page record, from all of the route shards of the deployment that version.json names.
    const manifest = (await page.evaluate(async () => {
      const pointer = (await (await fetch('/docs/version.json')).json()) as { manifest: string };
      return (await (await fetch(pointer.manifest)).json()) as Manifest;
    })) as Manifest;
    const shardUrls = (manifest.shards ?? []).map((name) => shardUrl(manifest.site.base, name));
    const shards = await page.evaluate(
      (urls) => Promise.all(urls.map(async (u) => (await fetch(u)).json() as Promise<RouteShard>)),
      shardUrls,
    );
    const pages = manifest.shards === undefined ? manifest.pages : shards.flatMap((shard) => shard.pages);
    const llms = await page.request.get(`${base()}/docs/llms.txt`);
    expect(llms.headers()['content-type']).toBe('text/plain; charset=utf-8');
    const index = await llms.text();
    expect(index.startsWith('# Pipedream Docs\n\n> connect APIs, remarkably fast.\n')).toBe(true);
    expect(pages.length).toBeGreaterThan(100);
    for (const { path, title } of pages) {
      expect(index).toContain(`- [${title}](https://pipedream.com/docs${path})`);
    }
    expect(index).toMatch(/^## Pricing and Limits$/m);

    const twin = await page.request.get(`${base()}/docs/limits.md`);
    expect(twin.headers()['content-type']).toBe('text/markdown; charset=utf-8');
    const markdown = await twin.text();
    expect(markdown.startsWith('# Limits\n')).toBe(true);
    // Constants are resolved, as on the page.
    expect(markdown).toContain('| [HTTP payload](#http-payload-size) | 512KB |');
    expect(markdown).not.toContain('{{');
    expect((await page.request.get(`${base()}/docs/index.md`)).status()).toBe(200);
    expect(await (await page.request.get(`${base()}/docs/llms-full.txt`)).text()).toContain(markdown.trim());
  });

  it('offers "Copy page as Markdown"', async () => {
    const { page } = await open('/docs/api/rest/', { permissions: ['clipboard-read', 'clipboard-write'] });
    await hydrated(page);
    // Writing the clipboard needs the page focused; another page of the worker's browser may have it.
    await page.bringToFront();
    await page.getByRole('button', { name: 'Copy page as Markdown' }).click();
    // The label says how it went: waited for until it changes, so that a failure shows which it became.
    const button = page.locator('.copy-markdown');
    await page.waitForFunction(() => document.querySelector('.copy-markdown')?.textContent !== 'Copy page as Markdown');
    expect(await button.textContent()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await (await page.request.get(`${base()}/docs/api/rest.md`)).text());
    expect(copied.startsWith('# REST API')).toBe(true);
  });
});

describe('the phone header', () => {
  it('shows the whole site title at 390 px, with every control on screen', async () => {
    const { page } = await open('/docs/limits/', { viewport: { width: 390, height: 844 }, hasTouch: true });
    await hydrated(page);
    const title = page.locator('.header .site-title');
    expect(await title.textContent()).toBe('Pipedream Docs');
    expect(await title.evaluate((t) => t.scrollWidth <= t.clientWidth)).toBe(true);
    for (const control of ['.menu-button', '.version-button', '.search-button', '.theme-toggle']) {
      const box = await page.locator(`.header ${control}`).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, control).toBe(true);
    }
  });
});
