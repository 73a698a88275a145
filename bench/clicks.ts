/**
 * Click → the next page's heading painted, for the clicks a reader makes right after a page has loaded:
 * the first of them meets navigation still loading, its first page data not fetched and the router's first
 * work. The clicks are real mouse clicks (the pointer moves onto the link first, as a reader's does), in a
 * row, each as soon as the page before has painted. The time is taken in the page: from the click event's
 * timestamp to the end of the frame that shows the new heading (the task after its animation frame).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { headingText } from './browser';
import { median } from './builds';
import type { Figure } from './report';

export interface ClickTimes {
  /** Where the clicks started: a route under /docs/. */
  from: string;
  clicks: { to: string; ms: number | null }[];
}

const WAIT_MS = 10_000;

/** The h1 text a reader sees in a built page, without its "#" permalink. */
async function builtHeading(distDir: string, href: string): Promise<string | undefined> {
  const file = path.join(distDir, href.replace(/^\/docs\//, ''), 'index.html');
  return headingText(await readFile(file, 'utf8').catch(() => ''));
}

/** Arms the in-page timer: from the next click to the end of the frame that paints the h1 `want`. */
async function armPaintTimer(page: Page, want: string): Promise<void> {
  await page.evaluate(
    ({ expected, wait }) => {
      const shown = () => {
        const h1 = document.querySelector('#main-content h1');
        let text = '';
        for (const node of h1?.childNodes ?? []) {
          if (!(node instanceof Element && node.classList.contains('header-anchor'))) text += node.textContent;
        }
        return text.trim() === expected;
      };
      (window as unknown as { __click: Promise<number | null> }).__click = new Promise((resolve) => {
        let clickedAt: number | undefined;
        document.addEventListener('click', (event) => (clickedAt = event.timeStamp), { capture: true, once: true });
        const observer = new MutationObserver(() => {
          if (clickedAt === undefined || !shown()) return;
          observer.disconnect();
          const from = clickedAt;
          // The frame that has the heading is painted after its animation frame callbacks; a message
          // posted from one runs once that frame is done.
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve(performance.now() - from);
            channel.port2.postMessage(null);
          });
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        setTimeout(() => resolve(null), wait);
      });
    },
    { expected: want, wait: WAIT_MS },
  );
}

/** `count` sidebar links of the page shown, spread over the sidebar's visible entries, with their h1s. */
export async function clickTargets(
  page: Page,
  distDir: string,
  count: number,
): Promise<{ href: string; heading: string }[]> {
  const from = new URL(page.url()).pathname;
  const hrefs = await page.$$eval('nav#sidebar a[href^="/docs/"]', (links) =>
    links.filter((a) => a.getClientRects().length > 0).map((a) => a.getAttribute('href') ?? ''),
  );
  const candidates: { href: string; heading: string }[] = [];
  for (const href of new Set(hrefs)) {
    if (href === from || href.includes('#')) continue;
    const heading = await builtHeading(distDir, href);
    if (heading) candidates.push({ href, heading });
  }
  const step = Math.max(1, Math.floor(candidates.length / count));
  return candidates.filter((_, i) => i % step === 0).slice(0, count);
}

/**
 * Clicks the sidebar link to `href` and waits for its h1 `heading`: the time, null when it was not painted.
 * `hoverMs`: the pointer rests on the link that long before the press, as a reader's does (the page may
 * fetch on that intent); 0, the press follows the pointer's arrival at once.
 */
export async function timedClick(page: Page, href: string, heading: string, hoverMs = 0): Promise<number | null> {
  const link = page.locator(`nav#sidebar a[href="${href}"]`).first();
  if (hoverMs > 0) {
    await link.hover();
    await page.waitForTimeout(hoverMs);
  }
  await armPaintTimer(page, heading);
  await link.click();
  return page.evaluate(() => (window as unknown as { __click: Promise<number | null> }).__click);
}

/** Clicks `count` sidebar links of a page that has just been taken over, one after another, and times each. */
export async function clicksAfterLoad(page: Page, distDir: string, count: number): Promise<ClickTimes> {
  const from = new URL(page.url()).pathname;
  const clicks: ClickTimes['clicks'] = [];
  for (const { href, heading } of await clickTargets(page, distDir, count)) {
    clicks.push({ to: href, ms: await timedClick(page, href, heading) });
  }
  return { from, clicks };
}

/** The figures: the median of the clicks (each click's time in its note) and the worst of them. */
export function clickFigures(section: string, times: ClickTimes, targetMs: number): Figure[] {
  const measured = times.clicks.map((c) => c.ms).filter((ms): ms is number => ms !== null);
  const missed = times.clicks.length - measured.length;
  const name = `${times.clicks.length} clicks right after load: click → new h1 painted`;
  return [
    {
      section,
      name: `${name} (median)`,
      value: measured.length ? median(measured) : null,
      unit: 'ms',
      target: { max: targetMs },
      note:
        `from ${times.from}: ${measured.map((ms) => Math.round(ms)).join(' / ')} ms` +
        (missed ? `; ${missed} not painted within ${WAIT_MS / 1000} s` : ''),
    },
    {
      section,
      name: `${name} (worst)`,
      value: measured.length ? Math.max(...measured) : null,
      unit: 'ms',
      note: missed ? `${missed} not painted within ${WAIT_MS / 1000} s` : `of ${measured.length}`,
    },
  ];
}

/** The command-line options every click script takes: the built site, the page the clicks start from, how many, how long the pointer rests. */
export const CLICK_OPTIONS = {
  dist: { type: 'string' },
  route: { type: 'string', default: 'limits/' },
  clicks: { type: 'string', default: '10' },
  hover: { type: 'string', default: '0' },
} as const;
