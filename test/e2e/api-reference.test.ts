import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import { describe, expect, it } from 'vitest';
import { hydrated, useBrowser } from './browser';
import { appCase } from './server-cases';

const { open, base } = useBrowser();

/**
 * A page of the REST API reference that the build makes from content/api/openapi.yaml, read as a reader
 * reads it: an operation's parameters, its response schema folded and unfolded, its code group, the
 * operation found in search by its path, in the order a reader goes; and the page's markdown twin, which
 * alone depends on the server (nginx runs that case only).
 */
describe('the API reference', () => {
  appCase('shows an operation with its parameters, folded schemas and code, found in search by its path', async () => {
    const { page, problems } = await open(undefined);
    await page.context().addInitScript({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    await page.goto(`${base()}/docs/api/reference/users/`);
    await hydrated(page);

    const parameters = page.locator('#listMySources ~ .table-wrap table').first();
    const limit = parameters.locator('tr', { hasText: 'limit' });
    expect(await limit.locator('td').allTextContents()).toEqual([
      'limit',
      'query',
      'integer',
      'no',
      '',
      'How many items to put on the page; left out, the API chooses.',
    ]);

    const schema = page.locator('#getCurrentUser ~ details').first();
    expect(await schema.locator('summary').textContent()).toBe("200: The key's user. (application/json)");
    const orgname = schema.locator('code', { hasText: 'orgname' }).first();
    expect(await orgname.isVisible()).toBe(false);
    await schema.locator('summary').click();
    expect(await orgname.isVisible()).toBe(true);
    // Unfolded, the schema's lists and the page around them pass axe like any page (the highlighted
    // tokens' contrast is the highlight tests' concern).
    const axe = await page.evaluate(() =>
      (window as unknown as { axe: { run: (c: object, o: RunOptions) => Promise<AxeResults> } }).axe.run(
        { exclude: [['pre code']] },
        { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] },
      ),
    );
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
    await schema.locator('summary').click();
    expect(await orgname.isVisible()).toBe(false);

    const group = page.locator('#getCurrentUser ~ .code-group').first();
    expect(await group.getByRole('tab').allTextContents()).toEqual(['curl', 'Node.js', 'Python']);
    expect(await group.getByRole('tabpanel').textContent()).toContain(
      "curl -s 'https://api.pipedream.com/v1/users/me'",
    );
    await group.getByRole('tab', { name: 'Python' }).click();
    const python = group.getByRole('tabpanel');
    expect(await python.textContent()).toContain('requests.get(');
    // Highlighted at build time: the code arrives in coloured spans, not as plain text.
    expect(await python.locator('pre.shiki span[class^="c-"]').count()).toBeGreaterThan(5);

    await page.keyboard.press('/');
    const input = page.locator('.search-dialog input[role="combobox"]');
    await input.fill('/users/me');
    const hit = page.locator('.search-hit[data-url="/api/reference/users/#getCurrentUser"]');
    await hit.waitFor();
    await input.fill('listMyWebhooks');
    await page.locator('.search-hit[data-url="/api/reference/users/#listMyWebhooks"]').waitFor();
    expect(problems).toEqual([]);
  });

  it("serves the page's markdown twin as markdown, with the operation in it", async () => {
    const twin = await fetch(`${base()}/docs/api/reference/users.md`);
    expect(twin.status).toBe(200);
    expect(twin.headers.get('content-type')).toMatch(/^text\/markdown/);
    const markdown = await twin.text();
    expect(markdown).toContain('## Get the current user {#getCurrentUser}');
    expect(markdown).toContain('`GET /users/me`');
  });
});
