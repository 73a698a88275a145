import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';

const { open, base } = useBrowser();

/** Contrast ratio (WCAG) of a computed `rgb(…)` colour against white paper. */
function contrastOnWhite(colour: string): number {
  const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  return 1.05 / (luminance + 0.05);
}

const colourOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((e) => getComputedStyle(e).color);

/** The dark theme as a reader gets it: chosen with the toggle (stored), or from the system setting. */
const DARK_THEMES: [name: string, colorScheme: 'light' | 'dark', stored: boolean][] = [
  ['the chosen dark theme', 'light', true],
  ['the system dark theme', 'dark', false],
];

describe('print', () => {
  for (const [name, colorScheme, stored] of DARK_THEMES) {
    it(`prints just the content, dark on white, in ${name}`, async () => {
      const { page } = await open(undefined, { colorScheme });
      if (stored) await page.addInitScript(() => localStorage.setItem('docs-theme', 'dark'));
      await page.goto(`${base()}/docs/api/auth/`);
      await hydrated(page);
      // On screen the theme is dark: pale text.
      expect(contrastOnWhite(await colourOf(page, '#page-content p'))).toBeLessThan(2);

      await page.emulateMedia({ media: 'print' });
      expect(contrastOnWhite(await colourOf(page, '#page-content p'))).toBeGreaterThan(7);
      expect(contrastOnWhite(await colourOf(page, '#page-content h1'))).toBeGreaterThan(7);
      // Code keeps a readable colour on paper too.
      expect(contrastOnWhite(await colourOf(page, '#page-content pre code .line span'))).toBeGreaterThan(4.5);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
      for (const chrome of ['header.header', 'nav#sidebar', '.toc', '.prev-next', '.copy-code']) {
        expect(await page.locator(chrome).first().isVisible(), chrome).toBe(false);
      }
      expect(await page.locator('#page-content h1').isVisible()).toBe(true);
    });
  }

  it('leaves the light theme as it is', async () => {
    const { page } = await open('/docs/api/auth/', { colorScheme: 'light' });
    await hydrated(page);
    const screen = await colourOf(page, '#page-content pre code .line span');
    await page.emulateMedia({ media: 'print' });
    expect(await colourOf(page, '#page-content pre code .line span')).toBe(screen);
    expect(await page.locator('nav#sidebar').isVisible()).toBe(false);
  });
});
