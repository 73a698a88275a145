import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { hydrated } from '../e2e/browser';
import { CHROMIUM_ARGS } from '../e2e/chromium';
import { useServedTree } from '../e2e/preview';

/**
 * Injection, in Chromium against the preview server (which sends the Content-Security-Policy): a page whose
 * title, headings, text and links carry `<script>`, `"><img onerror>` and `javascript:` payloads is built
 * from a temporary tree and opened prerendered, after a client-side navigation and through the search
 * dialog, where the same payloads are typed. Nothing may run (window.__pwned stays unset), the payloads
 * typed as text must read as text, and no CSP violation, CSP console error or page error may occur. A
 * violation would mean live markup reached the page and only the CSP stopped it. Then the real site of the
 * global setup: a handful of routes hydrate with no violation, and the CSP does block an inline script there.
 */

const PAYLOAD = {
  script: '<script>window.__pwned=1</script>',
  img: '"><img src=x onerror="window.__pwned=1">',
  url: 'javascript:window.__pwned=1',
};
const TITLE = `Hostile ${PAYLOAD.script} ${PAYLOAD.img}`;
const TYPED_HEADING = `Typed ${PAYLOAD.script} ${PAYLOAD.img}`;
const TYPED_TEXT = `Body ${PAYLOAD.script} ${PAYLOAD.img} ${PAYLOAD.url}`;

/** Markdown that shows `text` literally: every ASCII punctuation character backslash-escaped. */
function literal(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

const HOSTILE_PAGE = [
  '---',
  // A JSON string is a valid YAML double-quoted scalar.
  `title: ${JSON.stringify(TITLE)}`,
  '---',
  '',
  `## ${literal(TYPED_HEADING)}`,
  '',
  literal(TYPED_TEXT),
  '',
  `## Raw ${PAYLOAD.script} ${PAYLOAD.img}`,
  '',
  `Raw text ${PAYLOAD.img} and <a href="${PAYLOAD.url}">raw link</a> and <span onmouseover="${PAYLOAD.url}">hover</span>.`,
  '',
  `A [hostile link](${PAYLOAD.url}), an [autolink-like one](<${PAYLOAD.url}>) and a [titled link](/ '${PAYLOAD.img}').`,
  '',
].join('\n');

const FILES = {
  'README.md': '# Home\n\nGo to the [hostile page](/hostile/).\n',
  'hostile.md': HOSTILE_PAGE,
};

/** A page, and what it reported that it never should: CSP violations, CSP console errors, page errors. */
interface Watched {
  page: Page;
  problems: string[];
}

let browser: Browser;
// Hostile content builds, with warnings for what the sanitizer removed.
const site = useServedTree(FILES, { warnings: true });

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: inject('chromiumPath'), args: CHROMIUM_ARGS });
});

/** Every context a test opened, closed after it so the file holds one page at a time. */
const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await browser?.close();
});

/**
 * A fresh context whose pages report every `securitypolicyviolation` to the test through a binding, so
 * violations in a document the page has since left are kept too.
 */
async function watchedPage(): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  const problems: string[] = [];
  await context.exposeFunction('__reportViolation', (text: string) => problems.push(`CSP violation: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportViolation: (text: string) => void }).__reportViolation;
      void report(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/content security policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return { page, problems };
}

/** Lets late violation reports (a task queued after the blocked action) reach the test before it asserts. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 150)));
}

/** The hostile page, whatever hash the heading tracker has put on its URL. */
function isHostilePage(url: URL): boolean {
  return url.origin === site.url && url.pathname === '/docs/hostile/';
}

async function pwned(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
}

/** Live markup the payloads could have become: handlers, scripts in the content, script URLs anywhere. */
async function liveMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes) {
        if (/^on/i.test(attr.name)) found.push(`<${el.localName} ${attr.name}>`);
        if (/^\s*javascript:/i.test(attr.value)) found.push(`<${el.localName} ${attr.name}="${attr.value}">`);
      }
    }
    // The one inline script a document has is the list of the app's start assets, which ends <body>: JSON,
    // which no browser runs.
    const scripts = '#page-content script, script:not([src]):not(body > script#docs-start[type="application/json"])';
    for (const script of document.querySelectorAll(scripts)) {
      found.push(`inline <script>${script.textContent ?? ''}</script>`);
    }
    return found;
  });
}

async function expectNothingRan(watched: Watched): Promise<void> {
  await settle(watched.page);
  expect(await pwned(watched.page)).toBeUndefined();
  expect(await liveMarkup(watched.page)).toEqual([]);
  expect(watched.problems).toEqual([]);
}

/** The payloads typed as text read as text: in the document title, the sidebar, the heading and the prose. */
async function expectPayloadsAsText(page: Page): Promise<void> {
  // `Title | Site title`, whatever the site is called.
  await expect.poll(() => page.title()).toMatch(new RegExp(`^${escapeRegExp(TITLE)} \\| `));
  await expect.poll(() => page.locator('#page-content h2').first().innerText()).toContain(TYPED_HEADING);
  expect(await page.locator('#page-content p').first().innerText()).toBe(TYPED_TEXT);
  expect(await page.locator('#sidebar').innerText()).toContain(TITLE);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('hostile text in a page, its links and the search', () => {
  it('serves prerendered HTML in which the payloads are text and nothing is live', async () => {
    // Scripts off: the browser's own parse of the page as served, before the app could change anything.
    const context = await browser.newContext({ javaScriptEnabled: false });
    contexts.push(context);
    const page = await context.newPage();
    const response = await page.goto(`${site.url}/docs/hostile/`);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    await expectPayloadsAsText(page);
    expect(await liveMarkup(page)).toEqual([]);
  });

  it('runs nothing on a prerendered load, once the app has hydrated', async () => {
    const watched = await watchedPage();
    await watched.page.goto(`${site.url}/docs/hostile/`);
    await hydrated(watched.page);
    await expectPayloadsAsText(watched.page);
    await expectNothingRan(watched);
  });

  it('runs nothing after a client-side navigation to the page', async () => {
    const watched = await watchedPage();
    const { page } = watched;
    await page.goto(`${site.url}/docs/`);
    await hydrated(page);
    // Survives only if the next page is rendered by the app rather than loaded anew.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.locator('#page-content a', { hasText: 'hostile page' }).click();
    await page.waitForURL(isHostilePage);
    await expectPayloadsAsText(page);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await expectNothingRan(watched);
  });

  it('does nothing when the hostile links are clicked', async () => {
    const watched = await watchedPage();
    const { page } = watched;
    await page.goto(`${site.url}/docs/hostile/`);
    await hydrated(page);
    const content = page.locator('#page-content');
    // The renderer drops the javascript: URLs; whatever is left of each link is clicked all the same.
    for (const text of ['hostile link', 'autolink-like one', 'raw link', 'hover']) {
      const target = content.getByText(text, { exact: true });
      expect(await target.count(), text).toBe(1);
      await target.hover();
      await target.click();
      expect(isHostilePage(new URL(page.url())), page.url()).toBe(true);
    }
    await expectNothingRan(watched);
  });

  it('runs nothing when the payloads are typed into the search, and shows the title as text in the results', async () => {
    const watched = await watchedPage();
    const { page } = watched;
    await page.goto(`${site.url}/docs/`);
    await hydrated(page);
    await page.keyboard.press('/');
    const input = page.locator('.search-dialog input');
    await input.waitFor();
    for (const query of [PAYLOAD.script, PAYLOAD.img, PAYLOAD.url, TITLE]) {
      await input.fill(query);
      await page.waitForFunction((q) => {
        const status = document.querySelector('.search-dialog [role="status"]')?.textContent ?? '';
        return document.querySelector<HTMLInputElement>('.search-dialog input')?.value === q && /result/i.test(status);
      }, query);
      expect(await pwned(page)).toBeUndefined();
    }
    await input.fill('Hostile');
    const group = page.locator('.search-group-title', { hasText: 'Hostile' }).first();
    await group.waitFor();
    expect(await group.innerText()).toBe(TITLE);
    await page.keyboard.press('Enter');
    await page.waitForURL(isHostilePage);
    await expectPayloadsAsText(page);
    await expectNothingRan(watched);
  });

  it('is protected by a CSP that blocks an injected inline script, and the violation is seen', async () => {
    // The control for every other test here: a violation, had there been one, would have been caught.
    const watched = await watchedPage();
    const { page } = watched;
    await page.goto(`${site.url}/docs/hostile/`);
    await hydrated(page);
    await injectInlineScript(page);
    await expect.poll(() => watched.problems.some((p) => /CSP violation: script-src/.test(p))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __inline?: unknown }).__inline)).toBeUndefined();
  });
});

/** What a successful injection would do: an inline script element added to the live page. */
async function injectInlineScript(page: Page): Promise<void> {
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inline = 1';
    document.body.append(script);
  });
}

describe('the real site under its CSP', () => {
  const server = inject('servers')[0];
  if (!server) throw new Error('no server was started by the global setup');
  const ROUTES = [
    '/docs/',
    '/docs/limits/',
    '/docs/api/rest/',
    '/docs/workflows/steps/triggers/',
    '/docs/no/such/page/',
  ];

  it.each(ROUTES)('%s hydrates with no CSP violation, and blocks an injected inline script', async (route) => {
    const watched = await watchedPage();
    const { page } = watched;
    const response = await page.goto(server.url + route);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    await hydrated(page);
    await settle(page);
    expect(watched.problems).toEqual([]);

    await injectInlineScript(page);
    await expect.poll(() => watched.problems.length).toBeGreaterThan(0);
    expect(watched.problems.filter((p) => !/script-src|Content Security Policy/i.test(p))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __inline?: unknown }).__inline)).toBeUndefined();
  });

  it('keeps working under the CSP through a client-side navigation and the search worker', async () => {
    const watched = await watchedPage();
    const { page } = watched;
    await page.goto(`${server.url}/docs/`);
    await hydrated(page);
    await page.locator('#sidebar a[href="/docs/limits/"]').first().click();
    await page.waitForURL((url) => url.pathname === '/docs/limits/');
    await page.locator('#page-content h1, #page-content h2').first().waitFor();
    await page.keyboard.press('/');
    await page.locator('.search-dialog input').fill('limits');
    await page.locator('.search-hit').first().waitFor();
    await settle(page);
    expect(watched.problems).toEqual([]);
  });
});
