import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appBundles, makeAppBundles } from '../../../../src/node/output/app-bundles';
import { copyOfSrc } from '../../../helpers/tree';

const folders = (root: string) => readdirSync(path.join(root, 'node_modules/.cache/docs-app')).sort();

describe("the app's bundles", () => {
  it('are made once for a state of src/, and again only when a file of the app changes', async () => {
    const root = await copyOfSrc({});
    const src = path.join(root, 'src');
    expect(await makeAppBundles(src)).toBe(true);
    expect(await makeAppBundles(src)).toBe(false);
    const before = await appBundles(src);
    expect([...before.client.files.keys()]).toContain(before.client.entry);
    expect(before.appCss.length).toBeGreaterThan(1000);
    expect(before.prerender.renderRoute).toBeTypeOf('function');

    const notFound = path.join(src, 'client/components/NotFound.tsx');
    await writeFile(notFound, (await readFile(notFound, 'utf8')).replace('Page not found', 'No page here'));
    expect(await makeAppBundles(src)).toBe(true);
    const after = await appBundles(src);
    expect(after.client.files.size).toBeGreaterThan(0);
    // The changed component is in the app's code, so some script of it is new; the stylesheet is the same.
    expect([...after.client.files.keys()].sort()).not.toEqual([...before.client.files.keys()].sort());
    expect(after.appCss).toBe(before.appCss);
    expect(folders(root)).toHaveLength(2);
  }, 60_000);

  it('are made whole by one of two builds that start at once, and read by both', async () => {
    const root = await copyOfSrc({});
    const src = path.join(root, 'src');
    const [a, b] = await Promise.all([appBundles(src), appBundles(src)]);
    expect(a.client.entry).toBe(b.client.entry);
    expect(a.prerender.version).toBe(b.prerender.version);
    expect(folders(root).filter((name) => name.endsWith('.partial'))).toEqual([]);
  }, 60_000);
});

describe('the prerender bundle', () => {
  it('fail the prerender with the error the renderer throws as it loads', async () => {
    const root = await copyOfSrc({
      'client/prerender.tsx': "throw new Error('prerender failed to load');\nexport const renderRoute = () => '';\n",
    });
    await expect(appBundles(path.join(root, 'src'))).rejects.toThrow('prerender failed to load');
  });
});
