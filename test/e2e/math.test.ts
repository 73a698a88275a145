import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';
import { useServedTree } from './preview';
import { appCase, appSuite } from './server-cases';

/**
 * A page with formulas, as KaTeX draws them at build time: its HTML laid out by KaTeX's stylesheet and
 * fonts, served by the site and loaded by pages with math only, under the site's Content-Security-Policy
 * (no inline styles); under nginx, the first case (KaTeX's stylesheet and fonts as served). The same site holds a page with
 * diagrams, the other drawing the build makes (one site, so one build and server, for both).
 */
const site = useServedTree({
  'README.md': '# Home\n\nThe [cost of a workflow](/costs/) is worked out there.\n',
  'retries.md': [
    '# Retries',
    '',
    'A step that fails is tried again, up to four times in a day.',
    '',
    '```mermaid',
    'flowchart LR',
    '  run[Step runs] -->|fails| wait[Waits] --> run',
    '  run -->|fourth failure| dlq[(Dead-letter queue)]',
    '```',
    '',
    '```mermaid',
    'timeline',
    '  title Retries of a failed step',
    '  section First hour',
    '    1 minute : Second attempt',
    '    10 minutes : Third attempt : The alert is sent',
    '  section Later',
    '    1 day : Last attempt, then the event goes to the dead-letter queue',
    '```',
    '',
  ].join('\n'),
  'costs.md': [
    '# Costs',
    '',
    'A run of $n$ steps of $t_i$ seconds each costs $\\lceil \\sum_i t_i / 30 \\rceil$ credits; a plan costs $19.',
    '',
    '$$',
    'c = \\frac{1}{30} \\sum_{i=1}^{n} t_i + \\sqrt{r^2 + 1}',
    '$$',
    '',
    'Retries add $\\overrightarrow{r}$ to the count.',
    '',
  ].join('\n'),
});
const { open } = useBrowser();

/** The KaTeX font families the document has loaded. */
function loadedKatexFonts(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.family.includes('KaTeX') && f.status === 'loaded').map((f) => f.family);
  });
}

async function seriousAxeViolations(page: Page): Promise<string[]> {
  const axe = await page.evaluate(() =>
    (window as unknown as { axe: { run: (c: object, o: RunOptions) => Promise<AxeResults> } }).axe.run(
      { include: [['#page-content']] },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] },
    ),
  );
  return axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

describe('formulas on a page', () => {
  it("are laid out with KaTeX's fonts, shown once, with no CSP violation and axe clean in both themes", async () => {
    const { page, problems } = await open(undefined);
    await page.context().addInitScript({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    await page.goto(`${site.url}/docs/costs/`);
    await hydrated(page);
    expect(await loadedKatexFonts(page)).toEqual(expect.arrayContaining(['KaTeX_Main', 'KaTeX_Math']));
    const display = page.locator('.math-display .katex-html');
    // KaTeX's layout took: the fraction stands taller than a line of text, and the MathML is only for
    // assistive technology (clipped to a pixel), so the formula is seen once.
    const box = await display.boundingBox();
    expect(box?.height).toBeGreaterThan(40);
    const mathml = await page.locator('.math-display .katex-mathml').boundingBox();
    expect(mathml?.width).toBeLessThanOrEqual(1);
    expect(await page.locator('#page-content .katex-html').count()).toBe(5);
    expect(await page.locator('#page-content').textContent()).toContain('a plan costs $19.');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    // A CSP violation is a console error (a refused inline style, font or stylesheet).
    expect(problems).toEqual([]);
  });

  appCase("are laid out on a page reached by navigation: the app links KaTeX's stylesheet then", async () => {
    const { page, problems, requests } = await open(undefined);
    await page.goto(`${site.url}/docs/`);
    await hydrated(page);
    const katexLinks = () => page.locator('link[rel="stylesheet"][href*="/katex."]').count();
    expect(await katexLinks()).toBe(0);
    expect(requests.filter((url) => /katex|KaTeX/.test(url))).toEqual([]);
    await page.getByRole('link', { name: 'cost of a workflow' }).click();
    await page.locator('h1', { hasText: 'Costs' }).waitFor();
    await expect.poll(katexLinks).toBe(1);
    await expect.poll(() => loadedKatexFonts(page)).toEqual(expect.arrayContaining(['KaTeX_Main']));
    const box = await page.locator('.math-display .katex-html').boundingBox();
    expect(box?.height).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });
});

/** The colour a CSS variable of the site's stylesheet resolves to, as computed styles give colours. */
function themeColour(page: Page, variable: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);
}

appSuite('diagrams on a page', () => {
  appCase(
    'are drawn in the theme colours, scaled to the column, with no CSP violation and axe clean in both themes',
    async () => {
      const { page, problems } = await open(undefined);
      await page.context().addInitScript({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
      await page.goto(`${site.url}/docs/retries/`);
      await hydrated(page);
      const timeline = page.getByRole('img', { name: 'Retries of a failed step' });
      const title = timeline.locator('text.timeline-title');
      const event = timeline.locator('.timeline-event text').first();
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        // Painted by the site's variables: the same drawing follows the theme.
        expect(await title.evaluate((text) => getComputedStyle(text).fill)).toBe(await themeColour(page, '--text'));
        expect(await event.evaluate((text) => getComputedStyle(text).fill)).toBe(await themeColour(page, '--text-2'));
        expect(await seriousAxeViolations(page)).toEqual([]);
      }
      const column = await page.locator('#page-content').boundingBox();
      for (const svg of await page.locator('figure.diagram svg').all()) {
        const box = await svg.boundingBox();
        expect(box!.width).toBeGreaterThan(100);
        expect(box!.width).toBeLessThanOrEqual(column!.width);
      }
      expect(await timeline.locator('.timeline-period').count()).toBe(3);
      expect(problems).toEqual([]);
    },
  );

  appCase('keep their text readable on a phone and scroll sideways instead', async () => {
    const { page } = await open(undefined, { viewport: { width: 375, height: 740 } });
    await page.goto(`${site.url}/docs/retries/`);
    await hydrated(page);
    const figure = page.locator('figure.diagram', { has: page.locator('.timeline-title') });
    const svg = figure.locator('svg');
    // Drawn at its own size, not shrunk to the screen: its 12-unit event text is 12 pixels tall.
    expect((await svg.boundingBox())!.width).toBe(Number(await svg.getAttribute('width')));
    const scroll = await figure.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(scroll.scroll).toBeGreaterThan(scroll.client);
    await figure.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => figure.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  });
});
