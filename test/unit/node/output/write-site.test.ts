import { mkdir, mkdtemp, readFile, unlink } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { heldText } from '../../../../src/node/analyze/text-store';
import type { DocumentParts } from '../../../../src/node/output/render-document';
import type { SiteFile } from '../../../../src/node/output/site-files';
import { FolderUpdate } from '../../../../src/node/output/folder-update';
import { renderingAhead, writeFiles, writeManifestFolder } from '../../../../src/node/output/write-site';
import { POINTER_FILE } from '../../../../src/shared/site-data';
import type { Manifest } from '../../../../src/shared/types';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

describe('writing the output', () => {
  it('fails with the error of a write that failed, once every other write has ended', async () => {
    const root = await makeTree({ 'README.md': '# Home\n\nText.\n', 'guide.md': '# Guide\n\nMore.\n' });
    expect(messages(await buildTree(root))).toEqual([]);
    const manifest = JSON.parse(await readFile(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;

    // A folder where search.json goes: that one write fails, after the others have started.
    const out = await mkdtemp(path.join(tmpdir(), 'docs-write-'));
    await mkdir(path.join(out, 'search.json'));
    await expect(
      writeManifestFolder(out, { manifest, pages: [], search: { entry: '{}', shards: [] } }),
    ).rejects.toMatchObject({
      code: 'EISDIR',
    });
    expect(existsSync(path.join(out, 'manifest.json'))).toBe(true);
  });
});

describe('documents rendered ahead of the file being written', () => {
  /** A document per route, rendered when the test says, and the routes whose render has started. */
  function documents(routes: string[]) {
    const started: string[] = [];
    const finish = new Map<string, (html: string) => void>();
    const parts = (html: string): DocumentParts => [heldText(html)];
    const files: SiteFile[] = routes.map((route) => ({
      path: `${route}/index.html`,
      document: () => {
        started.push(route);
        return new Promise<DocumentParts>((resolve) => finish.set(route, (html) => resolve(parts(html))));
      },
    }));
    return { files, started, finish };
  }

  it('starts a bounded number of renders ahead, and gives the files in their order', async () => {
    const { files, started, finish } = documents(['a', 'b', 'c', 'd', 'e', 'f']);
    const data: SiteFile = { path: 'version.json', data: '{}' };
    const given = renderingAhead([data, ...files], 2, () => false);
    expect(given.next().value?.path).toBe('version.json');
    const first = given.next().value;
    // The first document is given once two more have started: three renders at once, no more.
    expect(first?.path).toBe('a/index.html');
    expect(started).toEqual(['a', 'b', 'c']);
    const rest = [...given];
    expect(rest.map((file) => file.path)).toEqual(['b', 'c', 'd', 'e', 'f'].map((r) => `${r}/index.html`));
    // Each file's document is the render started for it, whatever order the renders end in.
    for (const route of ['f', 'a', 'c', 'b', 'e', 'd']) finish.get(route)?.(`<p>${route}</p>`);
    const html = await Promise.all(
      [first, ...rest].map(async (file) => (file && 'document' in file ? (await file.document())[0]?.read() : '')),
    );
    expect(html).toEqual(['a', 'b', 'c', 'd', 'e', 'f'].map((r) => `<p>${r}</p>`));
    expect(started).toHaveLength(6);
  });

  it('never renders a document the folder keeps as it is', () => {
    const { files, started } = documents(['kept', 'changed']);
    const given = [...renderingAhead(files, 4, (file) => file.path === 'kept/index.html')];
    expect(given.map((file) => file.path)).toEqual(['kept/index.html', 'changed/index.html']);
    expect(started).toEqual(['changed']);
  });

  it('leaves a render that fails ahead to fail the build where its file is written, not as an unhandled rejection', async () => {
    const failing: SiteFile[] = ['a', 'b', 'c'].map((route) => ({
      path: `${route}/index.html`,
      document: () => Promise.reject(new Error(`prerendering /${route}/: broke`)),
    }));
    const given = renderingAhead(failing, 2, () => false);
    const first = given.next().value;
    // b and c fail while a is being written: the build stops at a, and never awaits the others.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(first && 'document' in first ? first.document() : undefined).rejects.toThrow(
      'prerendering /a/: broke',
    );
  });
});

describe('the order files move into place', () => {
  /** A site of `version`: data files, the pointer to them, then documents, in the site's order. */
  function site(version: string): SiteFile[] {
    const data = Array.from({ length: 40 }, (_, n) => ({ path: `assets/js/data.${n}.json`, data: `${version}\n` }));
    const documents = Array.from({ length: 6 }, (_, n) => ({
      path: `page-${n}/index.html`,
      // Rendered at once: their lane writes them while the other lane is still at the data files.
      document: () => Promise.resolve([heldText(`<html>${version}</html>\n`)]),
    }));
    return [
      ...data,
      { path: POINTER_FILE, data: `${version}\n` },
      ...documents,
      { path: 'sitemap.xml', data: version },
    ];
  }

  it('moves the pointer after every data file and before any document, whatever order they were written in', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'docs-order-'));
    const cache = await mkdtemp(path.join(tmpdir(), 'docs-order-cache-'));
    const first = await FolderUpdate.open(dist, cache);
    await writeFiles(dist, site('old'), { renderer: { ready: async () => 2 } }, first);
    await first.commit();

    const update = await FolderUpdate.open(dist, cache);
    await writeFiles(dist, site('new'), { renderer: { ready: async () => 2 } }, update);
    // The commit stops at the pointer, as a build killed there would: its new bytes are gone.
    await unlink(update.fileOf(POINTER_FILE));
    await expect(update.commit()).rejects.toMatchObject({ code: 'ENOENT' });

    const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');
    // New data beside the old pointer and the old documents, which the app shows the new pages with;
    // never a new document beside old data.
    for (let n = 0; n < 40; n++) expect(read(`assets/js/data.${n}.json`)).toBe('new\n');
    expect(read(POINTER_FILE)).toBe('old\n');
    for (let n = 0; n < 6; n++) expect(read(`page-${n}/index.html`)).toBe('<html>old</html>\n');
  });
});
