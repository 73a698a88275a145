import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { holdBack, hydrated, lazyChunk, navigationFiles, useBrowser } from './browser';
import { appCase } from './server-cases';

const { open, base } = useBrowser();

// Under nginx, the cases that depend on the server: the page as HTML, the takeover (the scripts' and data's
// content types, the Content-Security-Policy) and the 404 page.

describe('first load', () => {
  it('arrives as complete HTML that reads without JavaScript', async () => {
    const { page } = await open('/docs/limits/', { javaScriptEnabled: false });
    await expect(page.textContent('#main-content h1')).resolves.toContain('Limits');
    await expect(page.locator('header .site-title').textContent()).resolves.toBe('Pipedream Docs');
    await expect(page.locator('nav#sidebar a[aria-current="page"]').textContent()).resolves.toBe('Limits');
    await expect(page.locator('.toc a').count()).resolves.toBeGreaterThan(5);
    await expect(page.locator('.prev-next a').count()).resolves.toBe(2);
    await expect(page.locator('#page-content').textContent()).resolves.toContain('512KB');
    expect(await page.title()).toBe('Limits | Pipedream Docs');
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe('https://pipedream.com/docs/limits/');
    expect(await page.getAttribute('html', 'lang')).toBe('en-US');
  });

  it('is taken over by the app without refetching the page or any error', async () => {
    const { page, problems, requests } = await open('/docs/limits/');
    await hydrated(page);
    const before = await page.locator('#page-content').innerHTML();
    expect(requests.filter((u) => /page\.limits\./.test(u))).toEqual([]);
    expect(requests.filter((u) => /manifest\.[0-9a-f]{8}\.json/.test(u))).toHaveLength(1);
    expect(await page.locator('#page-content').innerHTML()).toBe(before);
    expect(problems).toEqual([]);
  });

  appCase('paints with the stylesheet alone, then starts the app and fetches its data once', async () => {
    const { page, problems } = await open('/docs/limits/');
    await hydrated(page);
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return {
        paint,
        before: resources.filter((r) => r.startTime < paint).map((r) => new URL(r.name).pathname),
        after: resources.filter((r) => r.startTime >= paint).map((r) => new URL(r.name).pathname),
      };
    });
    expect(timing.paint).toBeGreaterThan(0);
    // The document's own requests: the boot script and the stylesheet (and the icon, which Chromium
    // fetches when it likes); none of the app's.
    expect(timing.before.filter((url) => !/\/favicon\.[0-9a-f]{8}\.svg$/.test(url)).sort()).toEqual([
      expect.stringMatching(/^\/docs\/assets\/css\/app\.[0-9a-f]+\.css$/),
      expect.stringMatching(/^\/docs\/assets\/js\/theme\.[A-Z0-9]+\.js$/),
    ]);
    // Each once. The site's other route shards may follow the page's own (a small site's are all fetched
    // once navigation has loaded and the page is idle), each once too.
    for (const file of [/\/entry\.[A-Z0-9]+\.js$/, /\/manifest\.[0-9a-f]{8}\.json$/, /\/routes\.[0-9a-f]{8}\.json$/]) {
      const urls = timing.after.filter((url) => file.test(url));
      expect(urls.length, String(file)).toBeGreaterThan(0);
      expect(new Set(urls).size, String(file)).toBe(urls.length);
    }
    expect(problems).toEqual([]);
  });

  appCase('preloads every script the takeover runs, so none of its steps waits for a request of its own', async () => {
    const { page, problems, requests } = await open('/docs/limits/');
    await hydrated(page);
    const start = await page.evaluate(() => document.getElementById('docs-start')?.textContent ?? '');
    const { entry, modules } = JSON.parse(start) as { entry: string; modules: string[] };
    const scripts = requests.map((url) => new URL(url).pathname).filter((path) => path.endsWith('.js'));
    const app = new Set(scripts.filter((path) => !/\/theme\.[A-Z0-9]+\.js$/.test(path)));
    // The entry, the app's modules and React's DOM renderer, at least.
    expect(modules.length).toBeGreaterThanOrEqual(2);
    for (const file of [entry, ...modules]) expect(app, file).toContain(file);
    // Beside them only navigation, which loads once the page has been taken over (it may have begun).
    const navigation = (await navigationFiles(page)).map((url) => new URL(url).pathname);
    const others = [...app].filter((path) => path !== entry && !modules.includes(path));
    expect(others.filter((path) => !navigation.includes(path))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows the not-found page inside the layout, with status 404', async () => {
    const { page, problems } = await open();
    const response = await page.goto(`${base()}/docs/no/such/page/`);
    expect(response?.status()).toBe(404);
    await hydrated(page);
    await expect(page.textContent('#main-content h1')).resolves.toBe('Page not found');
    await expect(page.locator('nav#sidebar a').count()).resolves.toBeGreaterThan(100);
    expect(await page.title()).toBe('Page not found | Pipedream Docs');
    expect(problems).toEqual([]);
  });

  appCase('changes nothing on <html> at its start that would restyle the whole document', async () => {
    const { page, problems } = await open();
    await page.addInitScript(() => {
      const changed: string[] = [];
      (window as unknown as { htmlChanges: string[] }).htmlChanges = changed;
      // Every attribute written on <html> once the page has painted, even to the value it had.
      new PerformanceObserver((_, observer) => {
        observer.disconnect();
        new MutationObserver((records) => {
          for (const record of records) changed.push(record.attributeName ?? '');
        }).observe(document.documentElement, { attributes: true });
      }).observe({ type: 'paint', buffered: true });
    });
    await page.goto(`${base()}/docs/limits/`);
    await hydrated(page);
    // The app's own effects run after hydration; let them.
    await page.waitForTimeout(500);
    const changed = await page.evaluate(() => (window as unknown as { htmlChanges: string[] }).htmlChanges);
    expect([...new Set(changed)].sort()).toEqual(['data-app-started', 'data-hydrated']);
    // Markers for tests and tooling only: no style rule reads them, so writing them restyles nothing.
    const css = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')?.href ?? '';
      return (await fetch(href)).text();
    });
    expect(css).not.toMatch(/data-hydrated|data-app-started/);
    expect(problems).toEqual([]);
  });

  appCase('paints a long page whole, so that none of it is laid out after the first paint', async () => {
    const { page, problems } = await open();
    await page.addInitScript(() => {
      // Runs just before the browser renders its first frame: is the document parsed to its end by then?
      requestAnimationFrame(() => {
        (window as unknown as { endParsedAtFirstFrame: boolean }).endParsedAtFirstFrame =
          document.getElementById('docs-start') !== null;
      });
    });
    // The document arrives over a slow connection, in parts, as it would on a phone: the browser could
    // paint the first part long before the last has arrived.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 64 * 1024,
      uploadThroughput: 64 * 1024,
    });
    // The longest page of content/: painted in part, the rest of it would be laid out in one long task.
    await page.goto(`${base()}/docs/api/rest/`);
    await hydrated(page);
    const atFirstFrame = await page.evaluate(
      () => (window as unknown as { endParsedAtFirstFrame?: boolean }).endParsedAtFirstFrame,
    );
    expect(atFirstFrame).toBe(true);
    expect(problems).toEqual([]);
  });

  appCase('makes no locale formatter at its start, whose locale data would hold up the main thread', async () => {
    const { page, problems } = await open();
    await page.addInitScript(() => {
      const made: string[] = [];
      (window as unknown as { intlMade: string[] }).intlMade = made;
      // A page's first Intl formatter loads the browser's locale data: tens of milliseconds in one task.
      const intl = Intl as unknown as Record<string, object>;
      for (const name of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat']) {
        const original = intl[name] as (...args: unknown[]) => unknown;
        intl[name] = new Proxy(original, {
          construct: (target, args) => (made.push(name), Reflect.construct(target, args) as object),
          apply: (target, self, args) => (made.push(name), Reflect.apply(target, self, args) as unknown),
        });
      }
    });
    await page.goto(`${base()}/docs/limits/`);
    await hydrated(page);
    // The app's own effects run after hydration; let them.
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade)).toEqual([]);
    expect(problems).toEqual([]);
  });

  appCase(
    'hydrates without navigation, and a tap before navigation has loaded waits for it, then navigates',
    async () => {
      const { page, problems } = await open();
      await page.goto(`${base()}/docs/limits/`);
      const chunk = await lazyChunk(page, 'navigation');
      const release = await holdBack(page, (url) => url.href === chunk);
      await page.goto(`${base()}/docs/limits/`);
      await hydrated(page);
      const length = await page.evaluate(() => history.length);
      await page.evaluate(() => ((window as unknown as { sameDocument?: boolean }).sameDocument = true));
      await page.click('nav#sidebar a[href="/docs/pricing/"]');
      await page.waitForTimeout(300);
      // Neither the app (it has no navigation yet) nor the browser (the tap is the app's) has moved.
      expect(new URL(page.url()).pathname).toBe('/docs/limits/');
      expect(await page.textContent('#main-content h1')).toContain('Limits');
      // The wait is shown as a slow navigation's is, and ends with it.
      await page.waitForSelector('.progress-bar[data-phase="loading"]');
      release();
      // The navigation chunk arrives, runs and renders the page: not a timed check, so a busy machine's seconds.
      await expect.poll(() => page.textContent('#main-content h1'), { timeout: 10_000 }).toContain('Pricing');
      await page.waitForSelector('.progress-bar[data-phase="idle"]', { state: 'attached' });
      expect(new URL(page.url()).pathname).toBe('/docs/pricing/');
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      expect(await page.evaluate(() => history.length)).toBe(length + 1);
      expect(problems).toEqual([]);
    },
  );

  // A reader taps the sidebar while the app is still taking the page over: the tap is answered, by the app
  // or as a plain page load, at whatever moment of the takeover it comes.
  for (const moment of ['first-paint', 'app-start'] as const) {
    appCase(
      `answers a tap on the sidebar at the ${moment === 'first-paint' ? 'first paint' : "app's start"}`,
      async () => {
        const { page, problems } = await open();
        await tapSidebarAt(page, moment, '/docs/pricing/');
        await page.goto(`${base()}/docs/limits/`);
        await page.waitForURL(`${base()}/docs/pricing/`);
        await expect.poll(() => page.textContent('#main-content h1')).toContain('Pricing');
        await hydrated(page);
        expect(await page.getAttribute('nav#sidebar a[aria-current="page"]', 'href')).toBe('/docs/pricing/');
        expect(problems).toEqual([]);
        // The tap came during the takeover: the page shown now may be a new document (a plain page load), so
        // the tapped one kept its record in the tab's session storage.
        const tap = JSON.parse(
          (await page.evaluate(() => sessionStorage.getItem('tap'))) ?? 'null',
        ) as TapRecord | null;
        expect(tap).toMatchObject({ hydrated: false });
      },
    );
  }
});

interface TapRecord {
  /** Milliseconds from the first contentful paint to the tap. */
  afterPaint: number;
  /** Whether the app had taken the page over when the tap came. */
  hydrated: boolean;
}

/**
 * Arms the next document to click the sidebar entry `href` as soon as it has painted (`first-paint`), or as
 * soon as the app's entry starts (`app-start`, which the boot script runs after the first paint). The tap
 * is a click event dispatched in the page, so it comes at that moment and not a driver's round trip later.
 */
async function tapSidebarAt(page: Page, moment: 'first-paint' | 'app-start', href: string): Promise<void> {
  await page.addInitScript(
    ({ moment, href }) => {
      // Only the first document: the page the tap leads to is left alone.
      if (sessionStorage.getItem('tap-armed')) return;
      sessionStorage.setItem('tap-armed', '1');
      let painted = NaN;
      const tap = () => {
        const anchor = document.querySelector<HTMLAnchorElement>(`nav#sidebar a[href="${href}"]`);
        if (!anchor) throw new Error(`no sidebar entry ${href} to tap`);
        const record = {
          afterPaint: performance.now() - painted,
          hydrated: document.documentElement.dataset['hydrated'] === 'true',
        };
        sessionStorage.setItem('tap', JSON.stringify(record));
        anchor.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, view: window }));
      };
      new PerformanceObserver((list, observer) => {
        const paint = list.getEntriesByName('first-contentful-paint')[0];
        if (!paint) return;
        observer.disconnect();
        painted = paint.startTime;
        if (moment === 'first-paint') tap();
      }).observe({ type: 'paint', buffered: true });
      if (moment === 'app-start') {
        new MutationObserver((_, observer) => {
          if (document.documentElement?.dataset['appStarted'] !== 'true') return;
          observer.disconnect();
          tap();
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-app-started'] });
      }
    },
    { moment, href },
  );
}
