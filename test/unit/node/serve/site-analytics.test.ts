import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_ORIGIN } from '../../../../src/node/output/document';
import { createSiteServer } from '../../../../src/node/serve/server';
import { builtSite, builtSiteSecurity } from '../../../../src/node/serve/site-analytics';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

const site = (extra: string) => `title: Served Docs\n${extra}sidebar:\n  - text: Guide\n    items: [/]\n`;

async function built(extra: string): Promise<string> {
  const root = await makeTree({ '_site.yaml': site(extra), 'README.md': '# Home\n\nHello.\n' });
  const result = await buildTree(root);
  expect(messages(result)).toEqual([]);
  return path.join(root, 'dist');
}

/** The CSP the preview server (`npm run preview`, `npm start`) sends for a built dist/. */
async function cspOf(distDir: string): Promise<string> {
  const server = createSiteServer({ distDir });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/`);
    return response.headers.get('content-security-policy') ?? '';
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('the CSP of a served build follows its analytics setting', () => {
  it('allows the tag manager for scripts and connections when the built manifest has an analytics id', async () => {
    const dist = await built('analyticsId: GTM-SERVED1\n');
    expect(builtSiteSecurity(dist).analytics).toBe(true);
    const csp = await cspOf(dist);
    expect(csp).toContain(`script-src 'self' ${ANALYTICS_ORIGIN};`);
    expect(csp).toContain(`connect-src 'self' ${ANALYTICS_ORIGIN};`);
  });

  it('allows no other origin without an id, or when the build cannot be read', async () => {
    const dist = await built('');
    expect(builtSiteSecurity(dist).analytics).toBe(false);
    expect(await cspOf(dist)).not.toContain(ANALYTICS_ORIGIN);
    await writeFile(path.join(dist, 'version.json'), '{"manifest":"/docs/../../etc/passwd"}');
    expect(builtSiteSecurity(dist).analytics).toBe(false);
    expect(builtSiteSecurity(path.join(dist, 'missing')).analytics).toBe(false);
  });
});

describe('the CSP of a served build follows its embeds list', () => {
  it('frames exactly the embed domains of _site.yaml, in npm start and in the nginx include alike', async () => {
    const dist = await built('embeds: [loom.com]\nanalyticsId: GTM-SERVED1\n');
    const csp = await cspOf(dist);
    expect(csp).toContain('; frame-src https://loom.com https://*.loom.com; ');
    expect(readFileSync(path.join(dist, '_headers.nginx'), 'utf8').split('\n')[2]).toBe(
      `add_header Content-Security-Policy "${csp}" always;`,
    );
    const none = await cspOf(await built('embeds: []\n'));
    expect(none).toContain("; frame-src 'none'; ");
    // A site that names no list gets the default video hosts.
    expect(await cspOf(await built(''))).toContain(
      '; frame-src https://youtube.com https://*.youtube.com https://youtube-nocookie.com https://*.youtube-nocookie.com https://vimeo.com https://*.vimeo.com https://loom.com https://*.loom.com; ',
    );
  });
});

describe('the base of a served build', () => {
  it('is the one the site was built for, read from the manifest that version.json names', async () => {
    const nested = await built('base: /guides/v2/\n');
    expect(builtSite(nested)?.base).toBe('/guides/v2/');
    expect(builtSite(await built('base: /\n'))?.base).toBe('/');
    expect(builtSite(await built(''))?.base).toBe('/docs/');
    const server = createSiteServer({ distDir: nested });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await fetch(`${origin}/guides/v2/`)).status).toBe(200);
      expect((await fetch(`${origin}/docs/`)).status).toBe(404);
      const root = await fetch(`${origin}/`, { redirect: 'manual' });
      expect([root.status, root.headers.get('location')]).toEqual([301, '/guides/v2/']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is unknown when version.json names no manifest of this folder', async () => {
    const dist = await built('');
    await writeFile(path.join(dist, 'version.json'), '{"manifest":"/docs/assets/js/manifest.00000000.json"}');
    expect(builtSite(dist)).toBeUndefined();
    await writeFile(path.join(dist, 'version.json'), 'not json');
    expect(builtSite(dist)).toBeUndefined();
  });
});
