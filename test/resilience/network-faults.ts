import { describe, expect, it } from 'vitest';
import {
  clearProgressLog,
  FRAGMENTS,
  Injection,
  load,
  navigate,
  NEXT,
  pageError,
  progressFinished,
  progressPhases,
  recorded,
  searchWorks,
  showsPage,
  sidebarLink,
  START,
  TARGET,
  VISITED,
  watchProgressBar,
} from './fault-matrix';

/**
 * Offline and a slow network, after the fault matrix's navigation half (faults-after-navigation.test.ts):
 * recorded with its cases, in its summary.
 */

/** A layout-shift performance entry (not in TypeScript's DOM library). */
interface LayoutShiftEntry extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}

interface Shift {
  value: number;
  recent: boolean;
  at: number;
}

export function networkCases(): void {
  describe('the network', () => {
    it('going offline: loaded pages and search keep working, a new page says it needs the network', async () => {
      await recorded(
        [{ resource: 'network', fault: 'offline', moment: 'mid-session', expected: 'error' }],
        async (page, record) => {
          await watchProgressBar(page);
          await load(page, START);
          await navigate(page, TARGET);
          await page.keyboard.press('/');
          await searchWorks(page);

          await page.context().setOffline(true);
          await navigate(page, START);
          await navigate(page, TARGET);
          await page.keyboard.press('/');
          await searchWorks(page);

          await clearProgressLog(page);
          await sidebarLink(page, NEXT).click();
          const view = pageError(page);
          await view.waitFor();
          record.seen = await view.getAttribute('data-error-type');
          expect(record.seen).toBe('error');
          expect(await view.innerText()).toMatch(/offline.*needs the network/);
          const retry = view.getByRole('button', { name: 'Retry' });
          expect(await retry.isVisible()).toBe(true);
          await progressFinished(page, 'may run');

          await page.context().setOffline(false);
          await retry.click();
          await showsPage(page, NEXT);
          await navigate(page, VISITED);
        },
      );
    });

    it('no progress bar for a navigation faster than 200 ms (fragments delayed by 150 ms)', async () => {
      await recorded(
        [{ resource: 'network', fault: 'fragments 150 ms late', moment: 'after navigation', expected: 'no bar' }],
        async (page, record) => {
          await watchProgressBar(page);
          // The page's clock stands still while the fragment is held, then moves exactly 150 ms: the
          // navigation takes 150 ms of page time however busy the machine is.
          await page.clock.install();
          await load(page, START);
          await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
          let release: () => void = () => {};
          const held = new Promise<void>((resolve) => (release = resolve));
          const injection = new Injection(page.context(), FRAGMENTS, async (route) => {
            await held;
            await route.continue();
          });
          await injection.start();
          await clearProgressLog(page);
          await sidebarLink(page, TARGET).click();
          await expect.poll(() => injection.hits, { timeout: 10_000 }).toBeGreaterThan(0);
          await page.clock.runFor(150);
          release();
          await showsPage(page, TARGET);
          // Any timer the navigation left behind (a bar delay that was not cancelled) fires now.
          await page.clock.runFor(1_000);
          const phases = await progressPhases(page);
          record.seen = phases.includes('loading') ? 'bar' : 'no bar';
          expect(phases).toEqual([]);
          await page.clock.resume();
          await navigate(page, NEXT);
        },
      );
    });

    it('shows the progress bar for a slow navigation (1500 ms), finishes it, and shifts no layout', async () => {
      await recorded(
        [
          {
            resource: 'network',
            fault: 'fragments 1500 ms late',
            moment: 'after navigation',
            expected: 'bar, CLS < 0.1',
          },
        ],
        async (page, record) => {
          await watchProgressBar(page);
          await load(page, START);
          const injection = new Injection(page.context(), FRAGMENTS, async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 1_500));
            await route.continue();
          });
          await injection.start();
          // Layout shifts from now on. The bar appears 200 ms after the click, inside the 500 ms after
          // input in which the browser marks shifts as hadRecentInput (CLS leaves them out), so the
          // shifts are summed both ways: CLS as defined, and every shift, to hold the bar to "no shift".
          await page.evaluate(() => {
            const shifts: Shift[] = [];
            Object.assign(window, { __shifts: shifts, __shiftsFrom: performance.now() });
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as LayoutShiftEntry[]) {
                shifts.push({ value: entry.value, recent: entry.hadRecentInput, at: entry.startTime });
              }
            }).observe({ type: 'layout-shift', buffered: true });
          });
          await clearProgressLog(page);
          const started = Date.now();
          await sidebarLink(page, TARGET).click();
          const bar = page.locator('.progress-bar[data-phase="loading"]');
          await bar.waitFor({ state: 'attached' });
          expect(await bar.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
          await showsPage(page, TARGET);
          expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
          await progressFinished(page, 'ran');
          // Two frames, so shifts of the last paint have been reported.
          await page.evaluate(
            () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))),
          );
          const { cls, all } = await page.evaluate(() => {
            const w = window as unknown as { __shifts: Shift[]; __shiftsFrom: number };
            const during = w.__shifts.filter((s) => s.at >= w.__shiftsFrom);
            return {
              cls: during.filter((s) => !s.recent).reduce((n, s) => n + s.value, 0),
              all: during.reduce((n, s) => n + s.value, 0),
            };
          });
          record.seen = `bar, CLS ${cls.toFixed(3)} (all shifts ${all.toFixed(3)})`;
          expect(cls).toBeLessThan(0.1);
          expect(all).toBeLessThan(0.1);
          // The instrument works: a block pushed in above the text, with no input, is a shift it reports.
          const seenBefore = await page.evaluate(() => {
            const block = document.createElement('div');
            block.style.height = '300px';
            document.querySelector('#page-content')?.prepend(block);
            return (window as unknown as { __shifts: Shift[] }).__shifts.length;
          });
          await page.waitForFunction((n) => {
            const shifts = (window as unknown as { __shifts: Shift[] }).__shifts.slice(n);
            return shifts.some((s) => !s.recent && s.value > 0.05);
          }, seenBefore);
          await navigate(page, NEXT);
        },
      );
    });
  });
}
