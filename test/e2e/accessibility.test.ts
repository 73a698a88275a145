import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { keyFromRoute } from '../../src/shared/paths';
import { specRoutes } from '../helpers/spec';
import { hydrated, POLLED, useBrowser } from './browser';

const { open, base } = useBrowser();

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WCAG_AA: RunOptions['runOnly'] = { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] };
/**
 * The rules whose outcome depends on colour. The themes differ in colour only (the dark palette is CSS
 * under prefers-color-scheme), so a page checked in full in one theme needs only these in the other.
 */
const COLOUR_RULES: RunOptions['runOnly'] = { type: 'rule', values: ['color-contrast', 'link-in-text-block'] };

/** Opens a page with axe-core present in it from the first script on, so every check runs at once. */
async function openWithAxe(path?: string, options: BrowserContextOptions = {}): Promise<Page> {
  const { page } = await open(undefined, options);
  await page.context().addInitScript({ path: axeSource });
  if (path !== undefined) await page.goto(base() + path);
  return page;
}

/** The page's window, with axe-core in it and the text `markNewTextLooks` found. */
interface TabWithAxe {
  axe: { run: (context: object, options: RunOptions) => Promise<AxeResults> };
  newTextLooks?: Element[];
  checkedLooks?: Record<string, Set<string>>;
  checkedMarkup?: Set<string>;
}

/** The highlighted tokens inside code blocks: see `violations`. */
const CODE_TOKENS = 'pre code';

/**
 * Serious and critical axe violations, as `rule: target` lines a person can act on. The highlighted
 * tokens inside code blocks are left out: there are thousands per page, and their contrast is proven
 * for every colour of the palette by test/unit/node/highlight/css.test.ts. `newLooksOnly`
 * narrows the run to the text `markNewTextLooks` found.
 */
async function violations(
  page: Page,
  runOnly: RunOptions['runOnly'] = WCAG_AA,
  skip: string[] = [],
  {
    newLooksOnly = false,
    within,
    rules,
  }: { newLooksOnly?: boolean; within?: string; rules?: RunOptions['rules'] } = {},
): Promise<string[]> {
  const result = await page.evaluate(
    async ({ options, exclude, newLooksOnly, within }) => {
      const tab = window as unknown as TabWithAxe;
      const include = newLooksOnly ? (tab.newTextLooks ?? []) : within ? [[within]] : undefined;
      return tab.axe.run(include ? { include, exclude } : { exclude }, options);
    },
    {
      // Only violations cross back to the test: the passes of a whole page are most of axe's time otherwise.
      options: { runOnly, rules, resultTypes: ['violations'] } satisfies RunOptions,
      exclude: [CODE_TOKENS, ...skip].map((selector) => [selector]),
      newLooksOnly,
      within,
    },
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id}: ${n.target.join(' ')}`));
}

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/**
 * The colour rules' verdict on a piece of text depends only on its look: its colour, the background
 * behind it, its size and weight, the opacity it is drawn with, and for a link its decoration and the
 * colour of the text around it. Following a reader from route to route, a tab meets the same looks again
 * and again (body text, links, inline code, table cells): this finds the visible elements holding text
 * (and the links) whose look, in this theme, has not been checked in this tab before, and returns how many.
 */
function markNewTextLooks(page: Page, theme: string, skip: string[]): Promise<number> {
  return page.evaluate(
    ({ theme, skipped }) => {
      const tab = window as unknown as TabWithAxe;
      const checked = ((tab.checkedLooks ??= {})[theme] ??= new Set<string>());
      const found: Element[] = [];
      const transparent = (style: CSSStyleDeclaration) =>
        style.backgroundImage === 'none' && /^(transparent|rgba\(.*,\s*0\))$/.test(style.backgroundColor);
      // What an element is drawn on and with: the nearest background that is not transparent, from the
      // element up, and the product of the opacities up to the root. Known for an element, known for its
      // children: each element's is worked out once.
      const drawnOn = new Map<Element, { background: string; opacity: number }>();
      const drawing = (at: Element): { background: string; opacity: number } => {
        const known = drawnOn.get(at);
        if (known) return known;
        const style = getComputedStyle(at);
        const outer = at.parentElement ? drawing(at.parentElement) : { background: '', opacity: 1 };
        const own = transparent(style) ? outer.background : `${style.backgroundColor} ${style.backgroundImage}`;
        const found = { background: own, opacity: Number(style.opacity) * outer.opacity };
        drawnOn.set(at, found);
        return found;
      };
      for (const element of document.body.querySelectorAll('*')) {
        const holdsText = [...element.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
        if (!holdsText && !element.matches('a[href]')) continue;
        if (!element.checkVisibility() || skipped.some((selector) => element.closest(selector))) continue;
        const style = getComputedStyle(element);
        const { background, opacity } = drawing(element);
        const around = element.parentElement ? getComputedStyle(element.parentElement).color : '';
        const look = [
          element.matches('a[href]') ? `link ${style.textDecorationLine} ${around}` : 'text',
          style.color,
          background,
          style.fontSize,
          style.fontWeight,
          opacity,
          style.textShadow,
        ].join('|');
        if (checked.has(look)) continue;
        checked.add(look);
        found.push(element);
      }
      tab.newTextLooks = found;
      return found.length;
    },
    { theme, skipped: [CODE_TOKENS, ...skip] },
  );
}

/**
 * The other rules' verdict on an element depends on its markup, not on its words: its tag and its parent's,
 * its role, classes and ARIA state, which attributes it has (whether an image's alt or a link's label is
 * empty, whether the ids it points to exist, whether its own id is used twice) and whether it holds any
 * text. Every route is a content page of the one page layout; what tells one from another is the markup
 * its content makes (tables, code groups, callouts, images, diagrams, formulas, the headings of its
 * contents list). This finds whether the page has an element whose markup this tab has not checked before.
 */
function hasNewMarkup(page: Page, skip: string[]): Promise<boolean> {
  return page.evaluate(
    ({ skipped }) => {
      const tab = window as unknown as TabWithAxe;
      const checked = (tab.checkedMarkup ??= new Set<string>());
      const REFERENCES = ['for', 'headers', 'aria-controls', 'aria-labelledby', 'aria-describedby', 'aria-owns'];
      const NAMES = ['alt', 'title', 'aria-label', 'placeholder', 'value'];
      const VALUES = ['role', 'type', 'lang', 'dir', 'scope', 'class'];
      const ids = new Map<string, number>();
      for (const element of document.querySelectorAll('[id]')) ids.set(element.id, (ids.get(element.id) ?? 0) + 1);
      const attribute = ({ name, value }: Attr): string => {
        if (name === 'id') return (ids.get(value) ?? 0) > 1 ? 'id=twice' : 'id';
        if (REFERENCES.includes(name))
          return `${name}=${value.split(/\s+/).every((id) => ids.has(id)) ? 'found' : 'missing'}`;
        if (NAMES.includes(name)) return value.trim() ? name : `${name}=empty`;
        if (name === 'tabindex') return `tabindex=${Math.sign(Number(value))}`;
        if (name === 'href') return value.startsWith('#') ? 'href=#' : 'href';
        if (VALUES.includes(name) || name.startsWith('aria-')) return `${name}=${value.split(/\s+/).sort().join(' ')}`;
        return name;
      };
      // The elements holding any text, however deep: each text node's ancestors, marked up to one already
      // marked (an element's own text would otherwise be gathered again for each of its ancestors).
      const withText = new Set<Element>();
      const texts = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        if (!text.textContent?.trim()) continue;
        for (let at = text.parentElement; at && !withText.has(at); at = at.parentElement) withText.add(at);
      }
      let fresh = false;
      for (const element of document.querySelectorAll('*')) {
        if (skipped.some((selector) => element.closest(selector))) continue;
        const markup = [
          `${element.parentElement?.tagName ?? ''}>${element.tagName}`,
          [...element.attributes].map(attribute).sort().join(' '),
          withText.has(element) ? 'text' : 'no text',
          element.checkVisibility() ? 'shown' : 'hidden',
        ].join('|');
        if (checked.has(markup)) continue;
        checked.add(markup);
        fresh = true;
      }
      return fresh;
    },
    { skipped: [CODE_TOKENS, ...skip] },
  );
}

const COLOURS_OFF: RunOptions['rules'] = {
  'color-contrast': { enabled: false },
  'link-in-text-block': { enabled: false },
};

/**
 * What a page shows a reader in `theme`: every rule of `runOnly` but the colour rules over the page when it
 * has markup not checked before in this tab, and the colour rules over text of a look not checked before
 * (axe's own set-up, a walk of the whole document, is most of a run's time, so a run with nothing new to
 * check is not made). Returns the violations and whether the other rules were run.
 */
async function violationsOnce(page: Page, theme: string, runOnly: RunOptions['runOnly'], skip: string[]) {
  const markup = runOnly !== COLOUR_RULES && (await hasNewMarkup(page, skip));
  const found = markup ? await violations(page, runOnly, skip, { rules: COLOURS_OFF }) : [];
  if ((await markNewTextLooks(page, theme, skip)) > 0)
    found.push(...(await violations(page, COLOUR_RULES, skip, { newLooksOnly: true })));
  return { found, markup };
}

/** Navigates in the app as a link in the content would, and waits until the route's page is shown. */
async function followLinkTo(page: Page, route: string): Promise<void> {
  await page.evaluate((href) => {
    const link = document.createElement('a');
    link.href = href;
    document.querySelector('#page-content')?.append(link);
    link.click();
    link.remove();
  }, `/docs${route}`);
  await page.waitForFunction(
    ({ path, key }) =>
      location.pathname === path &&
      document.querySelector(`[data-page-key="${key}"]`) !== null &&
      document.querySelector('.progress-bar')?.getAttribute('data-phase') !== 'loading',
    { path: `/docs${route}`, key: keyFromRoute(route) },
    POLLED,
  );
}

describe('accessibility of every route', () => {
  it('has no serious or critical axe violation on any route of the spec, in the light and the dark theme', async () => {
    const routes = specRoutes();
    const found: Record<(typeof THEMES)[number], string[]> = { light: [], dark: [] };
    // Two readers at a time: one per core of the machines this runs on. Each goes from route to route as a
    // reader does, by following links in the app (the prerendered first load of a page is checked below and
    // in first-load.test.ts); each page is checked in full in the light theme and for colour in the dark
    // one, which applies in place.
    const lanes = await Promise.all([0, 1].map(() => openWithAxe('/docs/')));
    let next = 0;
    let markupChecked = 0;
    await Promise.all(
      lanes.map(async (page) => {
        await hydrated(page);
        // The sidebar is the same list on every page (only its current entry moves): each reader checks it
        // in full on its first page, and after that each page's own parts.
        let skip: string[] = [];
        // A page is checked first in the theme the reader left the last one in: a switch of theme restyles
        // the whole page, so one switch a route rather than two.
        let shown: Theme = 'light';
        await page.emulateMedia({ colorScheme: shown });
        for (let route = routes[next++]; route !== undefined; route = routes[next++]) {
          await followLinkTo(page, route);
          const order: readonly Theme[] = shown === 'light' ? ['light', 'dark'] : ['dark', 'light'];
          for (const theme of order) {
            if (theme !== shown) await page.emulateMedia({ colorScheme: theme });
            shown = theme;
            const checked = await violationsOnce(page, theme, theme === 'light' ? WCAG_AA : COLOUR_RULES, skip);
            for (const v of checked.found) found[theme].push(`${route} ${v}`);
            if (checked.markup) markupChecked++;
          }
          skip = ['nav#sidebar'];
        }
      }),
    );
    writeSummary(
      Object.fromEntries(THEMES.map((theme) => [theme, { routes: routes.length, violations: found[theme].length }])),
      markupChecked,
    );
    expect(found).toEqual({ light: [], dark: [] });
  }, 300_000);
});

describe.each(THEMES)('accessibility in the %s theme', (colorScheme) => {
  it('has none on the not-found page, the open search dialog and the open drawer', async () => {
    // Checked in full in the light theme; the dark one differs in colour only.
    const runOnly = colorScheme === 'light' ? WCAG_AA : COLOUR_RULES;
    const page = await openWithAxe('/docs/nope/', { colorScheme, viewport: { width: 375, height: 740 } });
    await hydrated(page);
    const found = await violations(page, runOnly);
    await page.click('button.menu-button');
    found.push(...(await violations(page, runOnly)));
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.locator('.search-dialog input').fill('webhooks');
    await page.locator('.search-hit').first().waitFor();
    found.push(...(await violations(page, runOnly)));
    expect(found).toEqual([]);
  });
});

describe('keyboard and small screens', () => {
  it('offers a skip link that moves focus to the content', async () => {
    const { page } = await open('/docs/limits/');
    await hydrated(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
  });

  it('lets a keyboard scroll the wide tables of a 390 px screen, with no axe violation there', async () => {
    for (const route of ['/docs/api/rest/', '/docs/workflows/steps/']) {
      const page = await openWithAxe(route, { viewport: { width: 390, height: 844 } });
      await hydrated(page);
      // The tables are what a small screen changes (they scroll, so they must take focus): the rest of these
      // pages is checked at full width by the walk above, and a small screen's header and drawer on the
      // not-found page.
      expect(await violations(page, WCAG_AA, [], { within: '.table-wrap' })).toEqual([]);
      const wide = page.locator('.table-wrap').first();
      await wide.focus();
      expect(await wide.evaluate((el) => el === document.activeElement)).toBe(true);
    }
  });

  it('fits a 360 px screen without horizontal scrolling', async () => {
    const { page } = await open('/docs/api/rest/', { viewport: { width: 360, height: 740 } });
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

/**
 * For `npm run bench`: routes checked by axe and violations found, per theme, and the routes whose page
 * brought markup not checked before (the others had their colours checked only).
 */
function writeSummary(summary: Record<string, { routes: number; violations: number }>, markupChecked: number): void {
  const dir = path.resolve(__dirname, '../../test-results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'axe-summary.json'),
    `${JSON.stringify({ date: new Date().toISOString(), themes: summary, routesWithNewMarkup: markupChecked }, null, 2)}\n`,
  );
}
