import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';
import { useServedTree } from './preview';
import { appCase } from './server-cases';

/**
 * Page feedback in Chromium, against a real HTTP endpoint on this machine: what a reader answers is what
 * arrives; an endpoint that fails is told to the reader and tried again on a later page view; the CSP
 * lets a page send to that endpoint and to no other origin (the server's header: that case runs under nginx too).
 */
interface Received {
  id: string;
  route: string;
  answer: string;
  comment?: string;
  deployment: string;
}
const received: Received[] = [];
let failing = false;

const body = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => resolve(text));
  });
const endpoint = createServer((request, response) => {
  // The site is on another origin: the endpoint answers the browser's CORS preflight, as a real one must.
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Access-Control-Allow-Headers', 'content-type');
  if (request.method === 'OPTIONS') return response.writeHead(204).end();
  void body(request).then((text) => {
    if (failing) return response.writeHead(500).end();
    received.push(JSON.parse(text) as Received);
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
const endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/feedback`;
afterAll(() => new Promise((resolve) => endpoint.close(resolve)));

const TAG_MANAGER = 'https://www.googletagmanager.com';
const site = useServedTree({
  '_site.yaml': `title: Docs\nanalyticsId: GTM-TEST123\nfeedback:\n  endpoint: ${endpointUrl}\n`,
  'README.md': '# Home\n\nSee [the guide](/guide/) and [the setup](/setup/).\n',
  'guide/README.md': '# Guide\n\nThe guide. Read [the setup](/setup/) next.\n',
  'setup.md': '# Setup\n\nThe setup. Back to [the guide](/guide/).\n',
});
const { open } = useBrowser();

async function openPage(route: string): Promise<{ page: Page; problems: string[] }> {
  const opened = await open(undefined);
  await opened.page
    .context()
    .route(`${TAG_MANAGER}/**`, (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
  await opened.page.goto(`${site.url}/docs${route}`);
  await hydrated(opened.page);
  return opened;
}

describe('page feedback', () => {
  appCase(
    'sends the answer and the comment as JSON, records an analytics event, and remembers the answer',
    async () => {
      const { page, problems } = await openPage('/guide/');
      const feedback = page.getByRole('region', { name: 'Page feedback' });
      await feedback.getByRole('button', { name: 'Yes' }).click();
      await expect.poll(() => received.length).toBe(1);
      // The keyboard reaches the comment box and sends it.
      await page.getByLabel('Anything we should add or fix? (optional)').fill('A diagram of the steps would help.');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect.poll(() => received.length).toBe(2);
      const [answer, comment] = received.splice(0);
      const deployment = await page.evaluate(async () => {
        const pointer = (await (await fetch('/docs/version.json')).json()) as { hash: string };
        return pointer.hash;
      });
      expect(answer).toEqual({ id: answer?.id, route: '/guide/', answer: 'yes', deployment });
      expect(comment).toEqual({ ...answer, comment: 'A diagram of the steps would help.' });
      await expect.poll(() => feedback.getByRole('status').textContent()).toContain('Thank you for your feedback.');
      const events = await page.evaluate(() =>
        ((window as unknown as { dataLayer?: { event?: string; answer?: string }[] }).dataLayer ?? []).filter(
          (e) => e.event === 'page_feedback',
        ),
      );
      expect(events).toEqual([{ event: 'page_feedback', page_path: '/guide/', answer: 'yes' }]);
      await page.reload();
      await hydrated(page);
      await expect.poll(() => feedback.textContent()).toContain('Thank you for your feedback.');
      expect(problems).toEqual([]);
    },
  );

  appCase('tells the reader an answer could not be sent, and sends it on a later page view', async () => {
    const { page } = await openPage('/setup/');
    failing = true;
    await page.getByRole('button', { name: 'No' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('could not be sent');
    expect(received).toEqual([]);
    failing = false;
    await page.click('#page-content a[href="/docs/guide/"]');
    await page.waitForFunction(() => document.querySelector('#main-content h1')?.textContent?.startsWith('Guide'));
    await expect.poll(() => received.map((r) => `${r.route} ${r.answer}`)).toEqual(['/setup/ no']);
    received.splice(0);
  });

  it('may send to the feedback endpoint and to no other origin', async () => {
    const { page } = await openPage('/');
    const csp = (await page.request.get(`${site.url}/docs/`)).headers()['content-security-policy'] ?? '';
    expect(csp).toContain(`connect-src 'self' ${TAG_MANAGER} ${new URL(endpointUrl).origin}`);
    const blocked = await page.evaluate(
      (elsewhere) =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) =>
            resolve(`${e.effectiveDirective} ${e.blockedURI}`),
          );
          fetch(elsewhere, { method: 'POST', body: '{}' }).catch(() => undefined);
        }),
      'http://127.0.0.2:9/collect',
    );
    expect(blocked).toBe('connect-src http://127.0.0.2:9/collect');
  });
});
