import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { specRoutes } from '../helpers/spec';
import { hydrated, useBrowser } from './browser';

const { open, base } = useBrowser();

/**
 * Serious and critical axe violations, as `rule: target` lines a person can act on. The highlighted
 * tokens inside code blocks are left out: there are thousands per page, and their contrast is proven
 * for every colour of the palette by test/unit/node/highlight-contrast.test.ts.
 */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('pre code')
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id}: ${n.target.join(' ')}`));
}

const summary: Record<string, { routes: number; violations: number }> = {};

describe.each(['light', 'dark'] as const)('accessibility in the %s theme', (colorScheme) => {
  it('has no serious or critical axe violation on any route of the spec', async () => {
    const routes = specRoutes();
    const found: string[] = [];
    // Two pages at a time: one per core of the machines this runs on.
    const lanes = await Promise.all([0, 1].map(async () => (await open(undefined, { colorScheme })).page));
    let next = 0;
    await Promise.all(
      lanes.map(async (page) => {
        for (let route = routes[next++]; route !== undefined; route = routes[next++]) {
          await page.goto(`${base()}/docs${route}`);
          for (const v of await violations(page)) found.push(`${route} ${v}`);
        }
      }),
    );
    summary[colorScheme] = { routes: routes.length, violations: found.length };
    writeSummary();
    expect(found).toEqual([]);
  }, 600_000);

  it('has none on the not-found page, the open search dialog and the open drawer', async () => {
    const { page } = await open('/docs/nope/', { colorScheme, viewport: { width: 375, height: 740 } });
    await hydrated(page);
    const found = await violations(page);
    await page.click('button.menu-button');
    found.push(...(await violations(page)));
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.locator('.search-dialog input').fill('webhooks');
    await page.locator('.search-hit').first().waitFor();
    found.push(...(await violations(page)));
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
      const { page } = await open(route, { viewport: { width: 390, height: 844 } });
      await hydrated(page);
      expect(await violations(page)).toEqual([]);
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

/** For `npm run bench`: routes checked by axe and violations found, per theme. */
function writeSummary(): void {
  const dir = path.resolve(__dirname, '../../test-results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'axe-summary.json'),
    `${JSON.stringify({ date: new Date().toISOString(), themes: summary }, null, 2)}\n`,
  );
}
