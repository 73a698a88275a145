import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, describe, it, type ExpectStatic } from 'vitest';
import { hydrated, POLLED, useBrowser } from './browser';
import { useServedTree } from './preview';

/**
 * Every control of the page answers a tap that comes at the first paint, long before the app has taken the
 * page over: the boot script keeps the tap and shows the button pressed, and the app performs it once it
 * has hydrated (src/client/app/early-taps.ts). Each control is tapped on three fresh loads with the CPU as
 * it is and four times slower (CDP Emulation.setCPUThrottlingRate), where the takeover takes longest.
 */
const feedback: string[] = [];
const endpoint = createServer((request, response) => {
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Access-Control-Allow-Headers', 'content-type');
  if (request.method === 'OPTIONS') return response.writeHead(204).end();
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    feedback.push(text);
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => endpoint.close(resolve)));

const CODE = 'const greeting = "Hello";';
const site = useServedTree({
  '_site.yaml': [
    'title: Docs',
    'announcement:',
    '  id: early',
    '  text: A new **editor**',
    'versions:',
    '  - text: v2',
    '    link: /docs/',
    '    current: true',
    '  - text: v1',
    '    link: https://v1.example.com/',
    'feedback:',
    `  endpoint: http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/feedback`,
    '',
  ].join('\n'),
  'README.md': '# Home\n\nSee [the guide](/guide/).\n',
  'guide/README.md': [
    '# Guide',
    '',
    'The guide to the greeting step.',
    '',
    '```js',
    CODE,
    '```',
    '',
    '::: code-group',
    '```js [Node.js]',
    'console.log(1);',
    '```',
    '```python [Python]',
    'print(1)',
    '```',
    ':::',
    '',
  ].join('\n'),
});
const { open } = useBrowser();

/** What a check gets: its test's own `expect` (the tests run side by side), and the feedback sent before. */
interface Check {
  expect: ExpectStatic;
  feedbackBefore: number;
}

interface Control {
  name: string;
  /** The control tapped at the first paint. */
  selector: string;
  /** Keys typed right after the tap, before the app is there. */
  typed?: string;
  phone?: boolean;
  /** It writes the clipboard, which the browser's tabs share: tapped while no other load taps such a control. */
  clipboard?: boolean;
  /** Waits until the page shows that the tap did what it says. */
  done: (page: Page, check: Check) => Promise<void>;
}

const poll = (page: Page, check: () => boolean) =>
  page.waitForFunction(check, undefined, { ...POLLED, timeout: 20_000 });

const CONTROLS: Control[] = [
  {
    name: 'the menu button on a phone',
    selector: 'button.menu-button',
    phone: true,
    done: async (page, { expect }) => {
      await poll(page, () => document.querySelector('.menu-button')?.getAttribute('aria-expanded') === 'true');
      expect(await page.locator('nav#sidebar a[href="/docs/guide/"]').isVisible()).toBe(true);
    },
  },
  {
    name: 'the search button, with what is typed before the app',
    selector: 'button.search-button',
    typed: 'guide',
    done: async (page, { expect }) => {
      const input = page.getByRole('dialog').getByRole('combobox');
      await expect.poll(() => input.inputValue(), { timeout: 20_000 }).toBe('guide');
      await page.getByRole('dialog').locator('a[href="/docs/guide/"]').first().waitFor({ timeout: 20_000 });
    },
  },
  {
    name: 'the theme toggle',
    selector: 'button.theme-toggle',
    done: async (page, { expect }) => {
      await poll(page, () => document.documentElement.dataset['theme'] === 'dark');
      expect(await page.getAttribute('button.theme-toggle', 'aria-pressed')).toBe('true');
      expect(await page.evaluate(() => localStorage.getItem('docs-theme'))).toBe('dark');
    },
  },
  {
    name: 'the version menu',
    selector: 'button.version-button',
    done: async (page, { expect }) => {
      await poll(page, () => document.querySelector('.version-button')?.getAttribute('aria-expanded') === 'true');
      expect(await page.locator('#version-list a[href="https://v1.example.com/"]').isVisible()).toBe(true);
    },
  },
  {
    name: 'a code group tab',
    selector: '.code-group [role="tab"]:last-child',
    done: async (page, { expect }) => {
      await poll(page, () => document.querySelector('.code-group [role="tab"]:last-child')?.ariaSelected === 'true');
      expect(await page.locator('.code-group pre:visible').textContent()).toContain('print(1)');
    },
  },
  {
    name: 'copy page as Markdown',
    selector: 'button.copy-markdown',
    clipboard: true,
    done: async (page, { expect }) => {
      await poll(page, () => document.querySelector('.copy-markdown')?.textContent === 'Copied');
      expect(await copiedTexts(page)).toContainEqual(expect.stringContaining('The guide to the greeting step.'));
    },
  },
  {
    name: 'a code block copy button',
    selector: '.code-block button.copy-code',
    clipboard: true,
    done: async (page, { expect }) => {
      // Its "Copied" shows for 1.5 s: on a slowed-down, busy machine a poll can come after it, so the labels
      // it has shown are recorded as they change (`recordCopies`).
      await poll(
        page,
        () => (window as unknown as Record<string, string[]>)['__codeCopyLabels']?.includes('Copied') ?? false,
      );
      expect(await copiedTexts(page)).toContain(CODE);
    },
  },
  {
    name: 'the feedback answer',
    selector: '.feedback-ask button',
    done: async (page, { expect, feedbackBefore }) => {
      await page.getByLabel('Anything we should add or fix? (optional)').waitFor({ timeout: 20_000 });
      const sent = () => feedback.slice(feedbackBefore).some((body) => body.includes('"answer":"yes"'));
      await expect.poll(sent, { timeout: 20_000 }).toBe(true);
    },
  },
  {
    name: "the announcement's dismiss",
    selector: 'button.announcement-close',
    done: async (page, { expect }) => {
      await poll(page, () => document.documentElement.dataset['announcement'] === 'dismissed');
      expect(await page.locator('.announcement').isVisible()).toBe(false);
    },
  },
];

/**
 * The controls tapped on one load. Controls that change nothing the others show are tapped together, in
 * order (the app performs kept taps in the order they came); the version menu comes last, as a tap
 * elsewhere closes it. The search dialog and the phone's drawer cover the page: each is tapped alone. The two
 * that copy (the clipboard is the browser's) go together, the code block's first: its "Copied" is brief.
 */
const byName = (name: string) => CONTROLS.filter((control) => control.name.startsWith(name));
const LOADS: Control[][] = [
  [
    ...byName('the theme toggle'),
    ...byName('a code group tab'),
    ...byName("the announcement's dismiss"),
    ...byName('the feedback answer'),
    ...byName('the version menu'),
  ],
  ...CONTROLS.filter((control) => control.phone || control.typed).map((control) => [control]),
  [...byName('a code block copy button'), ...byName('copy page as Markdown')],
];

const COPIED = '__copiedTexts';
/**
 * Records each text the page writes to the clipboard, which keeps only the last: two controls copy on one
 * load; and each label a code block's copy button shows (`__codeCopyLabels`), as it changes.
 */
async function recordCopies(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    const copied: string[] = [];
    const labels: string[] = [];
    Object.assign(window, { [key]: copied, __codeCopyLabels: labels });
    const writeText = Clipboard.prototype.writeText;
    Clipboard.prototype.writeText = function (this: Clipboard, text: string) {
      copied.push(text);
      return writeText.call(this, text);
    };
    new MutationObserver(() => {
      const label = document.querySelector('.code-block .copy-code')?.textContent;
      if (label && labels.at(-1) !== label) labels.push(label);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, COPIED);
}
/** The texts written to the clipboard since the page started (see `recordCopies`). */
const copiedTexts = (page: Page): Promise<string[]> =>
  page.evaluate((key) => [...((window as unknown as Record<string, string[]>)[key] ?? [])], COPIED);

/** What the page saw when the taps came: whether the app had hydrated, and whether each button showed pressed. */
interface TapRecord {
  hydrated: boolean;
  pressed: boolean[];
}

/** Arms the document to tap `selectors` in order (and type `typed`) the moment it has first painted. */
async function tapAtFirstPaint(page: Page, selectors: string[], typed: string): Promise<void> {
  await page.addInitScript(
    ({ selectors, typed }) => {
      new PerformanceObserver((list, observer) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        const controls = selectors.map((selector) => {
          const control = document.querySelector<HTMLElement>(selector);
          if (!control) throw new Error(`nothing to tap at ${selector}`);
          return control;
        });
        const hydrated = document.documentElement.dataset['hydrated'] === 'true';
        for (const control of controls) {
          control.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, view: window }));
        }
        for (const key of typed) document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
        const record = { hydrated, pressed: controls.map((control) => control.hasAttribute('data-tap-kept')) };
        (window as unknown as { tap: TapRecord }).tap = record;
      }).observe({ type: 'paint', buffered: true });
    },
    { selectors, typed },
  );
}

/** Three fresh loads in a row, each tapping `controls` at the first paint with the CPU `cpu` times slower. */
async function tapThreeLoads(controls: Control[], cpu: number, expect: ExpectStatic): Promise<void> {
  const phone = controls.some((control) => control.phone);
  for (let load = 0; load < 3; load++) {
    const feedbackBefore = feedback.length;
    const { page, problems } = await open(
      undefined,
      {
        permissions: ['clipboard-read', 'clipboard-write'],
        ...(phone ? { viewport: { width: 390, height: 800 }, hasTouch: true } : {}),
      },
      // Closed below: tests run side by side, and the file's cleanup after each would close the others' too.
      'caller',
    );
    try {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
      const copies = controls.some((control) => control.clipboard);
      if (copies) await recordCopies(page);
      const typed = controls.map((control) => control.typed ?? '').join('');
      await tapAtFirstPaint(
        page,
        controls.map((control) => control.selector),
        typed,
      );
      await page.goto(`${site.url}/docs/guide/`);
      await page.waitForFunction(() => 'tap' in window, undefined, { ...POLLED, timeout: 20_000 });
      const tap = await page.evaluate(() => (window as unknown as { tap: TapRecord }).tap);
      // The taps came before the app had taken the page over, and each showed at once that it was taken.
      expect(tap, `load ${load + 1}`).toEqual({ hydrated: false, pressed: controls.map(() => true) });
      // The slowed-down CPU is for the takeover, which performs the kept taps. Chromium slows a tab by keeping
      // a core busy for it, idle or not: once the app has taken over, the tab runs at the CPU's own speed.
      // Meanwhile the taps' effects are looked for (a code block's "Copied" is brief).
      const takenOver = hydrated(page).then(() => cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 }));
      for (const control of controls) await control.done(page, { expect, feedbackBefore });
      // The writes reached the browser's clipboard: it holds one of them (the last to finish).
      if (copies) expect(await copiedTexts(page)).toContain(await page.evaluate(() => navigator.clipboard.readText()));
      await takenOver;
      expect(await page.locator('[data-tap-kept]').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  }
}

/** The clipboard controls' turns: one after another, while the other loads run beside them. */
let clipboardTurn: Promise<unknown> = Promise.resolve();

// Side by side: a load mostly waits on a slowed-down browser. Each test checks with its own `expect`.
describe.concurrent('a tap at the first paint', () => {
  for (const cpu of [1, 4]) {
    for (const controls of LOADS) {
      const names = controls.map((control) => control.name);
      const named =
        names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}, tapped together` : names[0];
      it(`works on ${named}, CPU ${cpu}× slower, three loads in a row`, { timeout: 180_000 }, async ({ expect }) => {
        if (!controls.some((control) => control.clipboard)) return tapThreeLoads(controls, cpu, expect);
        const turn = clipboardTurn.then(() => tapThreeLoads(controls, cpu, expect));
        clipboardTurn = turn.catch(() => {});
        return turn;
      });
    }
  }
});
