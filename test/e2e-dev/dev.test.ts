import { appendFile, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSite } from '../../src/node/import/import-site';
import { startDevSession, type DevSession } from '../../src/node/dev/session';
import { CHROMIUM_ARGS, ensureChromium } from '../e2e/chromium';

const projectRoot = path.resolve(__dirname, '../..');
const filler = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} of filler text so the page scrolls.\n`).join('\n');
const TREE: Record<string, string> = {
  'README.md': '# Home\n\nWelcome. Read the [guide](/guide/).\n',
  'guide.md': `# Guide\n\nThe old sentence.\n\n## Install\n\n${filler}\n## Use\n\nThe end.\n`,
};

/** A dev session over `contentDir` and one Chromium tab, whose page errors go to `problems`. */
interface DevTab {
  session: DevSession;
  browser: Browser;
  page: Page;
}

const devCache = (name: string) => path.join(projectRoot, 'node_modules/.cache', `docs-dev-${name}-${process.pid}`);

async function openDevTab(root: string, contentDir: string, name: string, problems: string[], log?: () => void) {
  const session = await startDevSession({
    contentDir,
    srcDir: path.join(projectRoot, 'src'),
    cacheDir: devCache(name),
    outDir: path.join(root, 'out'),
    port: 0,
    ...(log ? { log } : {}),
  });
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  return { session, browser, page };
}

async function closeDevTab(tab: DevTab | undefined, root: string, name: string): Promise<void> {
  await tab?.browser.close();
  await tab?.session.close();
  await rm(root, { recursive: true, force: true });
  await rm(devCache(name), { recursive: true, force: true });
}

describe('npm run dev in Chromium', () => {
  let root: string;
  let content: string;
  let session: DevSession;
  let tab: DevTab | undefined;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];
  /** When the session last logged: a rebuild, or the search data's update after an edit. */
  let lastLogLine = Date.now();

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'docs-dev-e2e-'));
    content = path.join(root, 'content');
    for (const [name, text] of Object.entries(TREE)) {
      await mkdir(path.dirname(path.join(content, name)), { recursive: true });
      await writeFile(path.join(content, name), text);
    }
    tab = await openDevTab(root, content, 'e2e', problems, () => (lastLogLine = Date.now()));
    ({ session, page } = tab);
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('request', (r) => requests.push(r.url()));
  }, 120_000);

  afterAll(() => closeDevTab(tab, root, 'e2e'), 60_000);

  const edit = async (file: string, change: (text: string) => string) => {
    const full = path.join(content, file);
    await writeFile(full, change(await readFile(full, 'utf8')));
  };

  /** The route shards the tab read: the same data files as on the built site. */
  const shardsRead = () => new Set(requests.filter((url) => /\/assets\/js\/routes\.[0-9a-f]{8}\.json$/.test(url)));

  it('updates the open page in place on an edit, keeping the scroll position', async () => {
    await page.goto(`${session.url}guide/`);
    await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
    const shardsAtStart = shardsRead().size;
    expect(shardsAtStart).toBeGreaterThan(0);
    await page.evaluate(() => {
      (window as unknown as { devMarker: number }).devMarker = 42;
      window.scrollTo(0, 700);
    });
    await page.waitForFunction(() => Math.abs(window.scrollY - 700) < 2);

    const saved = Date.now();
    await edit('guide.md', (t) => t.replace('The old sentence.', 'The new sentence.'));
    await page.waitForFunction(() => document.getElementById('page-content')?.textContent?.includes('new sentence'));
    const ms = Date.now() - saved;
    console.log(`dev e2e: file saved → new text in the browser in ${ms} ms`);
    // The page's record of the new build, from its route shard, as a tab follows a new deployment.
    expect(shardsRead().size).toBeGreaterThan(shardsAtStart);

    expect(await page.evaluate(() => (window as unknown as { devMarker?: number }).devMarker)).toBe(42);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - 700)).toBeLessThan(5);
    expect(problems).toEqual([]);
  });

  it("asks for a save's manifest, route shard and fragment at once, without reading version.json first", async () => {
    const asked: { url: string; at: number }[] = [];
    const answered = new Map<string, number>();
    const onRequest = (request: Request) => asked.push({ url: request.url(), at: performance.now() });
    const onAnswer = (request: Request) => answered.set(request.url(), performance.now());
    page.on('request', onRequest);
    page.on('requestfinished', onAnswer);
    await edit('guide.md', (t) => t.replace('The new sentence.', 'The new sentence. One more.'));
    await page.waitForFunction(() => document.getElementById('page-content')?.textContent?.includes('One more.'));
    page.off('request', onRequest);
    page.off('requestfinished', onAnswer);

    expect(asked.filter(({ url }) => url.endsWith('/version.json'))).toEqual([]);
    const [manifest, shard, fragment] = [
      /manifest\.[0-9a-f]+\.json$/,
      /routes\.[0-9a-f]+\.json$/,
      /page\.[^/]+\.html$/,
    ].map((file) => asked.find(({ url }) => file.test(url)));
    const manifestAnswered = manifest && answered.get(manifest.url);
    expect(manifestAnswered).toBeDefined();
    // Asked for beside the manifest, not once it is read.
    expect(shard?.at).toBeLessThan(manifestAnswered ?? 0);
    expect(fragment?.at).toBeLessThan(manifestAnswered ?? 0);
    expect(await page.evaluate(() => (window as unknown as { devMarker?: number }).devMarker)).toBe(42);
  });

  it('shows a content error with file:line over the page, and removes it when fixed', async () => {
    await edit('guide.md', (t) => t.replace('The end.', 'The end. See [nowhere](/nowhere/).'));
    const overlay = page.locator('#docs-dev-overlay');
    await overlay.waitFor();
    await expect.poll(() => overlay.textContent()).toMatch(/guide\.md:\d+:\d+ broken link "\/nowhere\/"/);
    // The page is shown as saved, with its problem over it.
    await page.waitForFunction(() => document.getElementById('page-content')?.textContent?.includes('See nowhere'));
    expect(await page.locator('#page-content').textContent()).toContain('The new sentence.');

    await edit('guide.md', (t) => t.replace(' See [nowhere](/nowhere/).', ''));
    await overlay.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { devMarker?: number }).devMarker)).toBe(42);
  });

  it('adds a new page to the sidebar without a restart or a reload', async () => {
    await writeFile(path.join(content, 'extra.md'), '# Brand New Page\n\nHello.\n');
    await page.getByRole('link', { name: 'Brand New Page' }).first().waitFor();
    await page.getByRole('link', { name: 'Brand New Page' }).first().click();
    await page.waitForFunction(() => document.getElementById('page-content')?.textContent?.includes('Hello.'));
    expect(await page.evaluate(() => (window as unknown as { devMarker?: number }).devMarker)).toBe(42);
    expect(problems).toEqual([]);
  });

  it('shows every save of a page within a second, however the editor writes the file', async () => {
    await page.getByRole('link', { name: 'Guide', exact: true }).first().click();
    await page.waitForFunction(() => document.getElementById('page-content')?.textContent?.includes('The end.'));
    // The search data is rebuilt once the writer pauses after an edit, and a save waits for that: the
    // saves are timed once the earlier tests' edits have settled.
    await expect.poll(() => Date.now() - lastLogLine, { timeout: 30_000 }).toBeGreaterThan(1_500);
    const full = path.join(content, 'guide.md');
    const original = await readFile(full, 'utf8');
    const saves: [string, (sentence: string) => Promise<void>][] = [
      ['rewritten', (sentence) => writeFile(full, `${original}\n${sentence}\n`)],
      ['rewritten', (sentence) => writeFile(full, `${original}\n${sentence}\n`)],
      ['rewritten', (sentence) => writeFile(full, `${original}\n${sentence}\n`)],
      ['appended to', (sentence) => appendFile(full, `\n${sentence}\n`)],
      // A new file renamed over the page, as editors that save atomically do: later saves must still be seen.
      [
        'renamed over',
        async (sentence) => {
          await writeFile(`${full}.new`, `${original}\n${sentence}\n`);
          await rename(`${full}.new`, full);
        },
      ],
      ['rewritten', (sentence) => writeFile(full, `${original}\n${sentence}\n`)],
    ];
    for (const [i, [how, save]] of saves.entries()) {
      const sentence = `Save number ${i + 1} of the guide.`;
      const saved = Date.now();
      await save(sentence);
      await page.waitForFunction(
        (text) => document.getElementById('page-content')?.textContent?.includes(text),
        sentence,
        {
          timeout: 5_000,
        },
      );
      const ms = Date.now() - saved;
      console.log(`dev e2e: save ${i + 1} (file ${how}) shown in ${ms} ms`);
      expect(ms, `save ${i + 1}, the file ${how}`).toBeLessThan(1_000);
    }
    await writeFile(full, original);
    await page.waitForFunction(() => !document.getElementById('page-content')?.textContent?.includes('Save number'));
    expect(problems).toEqual([]);
  });
});

/** A site just brought over by `npm run import`, with the links that were already broken in the old site. */
describe('npm run dev on an imported tree with broken links, in Chromium', () => {
  let root: string;
  let content: string;
  let session: DevSession;
  let tab: DevTab | undefined;
  let page: Page;
  const problems: string[] = [];
  let lastLogLine = Date.now();

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'docs-dev-import-'));
    const old = path.join(root, 'old');
    await cp(path.join(projectRoot, 'test/fixtures/vuepress1'), old, { recursive: true });
    await appendFile(path.join(old, 'limits.md'), '\nThe [retired quotas](./quotas.md) no longer apply.\n');
    content = path.join(root, 'content');
    await importSite({ source: old, out: content });
    tab = await openDevTab(root, content, 'import', problems, () => (lastLogLine = Date.now()));
    ({ session, page } = tab);
  }, 120_000);

  afterAll(() => closeDevTab(tab, root, 'import'), 60_000);

  it('shows the page with a broken link, the problem over it, and every save', async () => {
    await page.goto(`${session.url}limits/`);
    await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
    expect(await page.locator('#page-content').textContent()).toContain('The retired quotas no longer apply.');
    const overlay = page.locator('#docs-dev-overlay');
    await expect.poll(() => overlay.textContent()).toMatch(/limits\.md:\d+:\d+ broken link "\.\/quotas\.md"/);

    // The page was made ahead of the imported site's first page pass, which goes on behind it and ends by
    // sending the tab the whole site (a reload when its stylesheet is new): the saves are timed once the
    // session has built it and gone quiet, so that each save is timed for itself.
    await session.built;
    await expect.poll(() => Date.now() - lastLogLine, { timeout: 30_000 }).toBeGreaterThan(1_500);
    await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
    const full = path.join(content, 'limits.md');
    const original = await readFile(full, 'utf8');
    for (const i of [1, 2, 3]) {
      const sentence = `Imported page, save number ${i}.`;
      const saved = Date.now();
      await writeFile(full, `${original}\n${sentence}\n`);
      await page.waitForFunction(
        (text) => document.getElementById('page-content')?.textContent?.includes(text),
        sentence,
        {
          timeout: 5_000,
        },
      );
      const ms = Date.now() - saved;
      console.log(`dev e2e: imported tree, save ${i} shown in ${ms} ms`);
      expect(ms).toBeLessThan(1_000);
      expect(await overlay.textContent()).toMatch(/limits\.md:\d+:\d+ broken link "\.\/quotas\.md"/);
    }
    expect(problems).toEqual([]);
  });

  it('shows a page without problems without the overlay, and fixing the link removes it', async () => {
    await page.goto(`${session.url}pricing/`);
    await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
    await page.waitForTimeout(300);
    expect(await page.locator('#docs-dev-overlay').count()).toBe(0);

    await page.goto(`${session.url}limits/`);
    await page.locator('#docs-dev-overlay').waitFor();
    const full = path.join(content, 'limits.md');
    await writeFile(full, (await readFile(full, 'utf8')).replace('[retired quotas](./quotas.md)', 'retired quotas'));
    await page.locator('#docs-dev-overlay').waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });
});
