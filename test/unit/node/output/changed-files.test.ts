import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { heldText } from '../../../../src/node/analyze/text-store';
import { ChangedFilesWriter, RETIRE_AFTER_MS } from '../../../../src/node/output/changed-files';
import type { SiteFile } from '../../../../src/node/output/site-files';

const LONG_AGO = new Date('2001-01-01T00:00:00Z');

describe("the dev server's output writer", () => {
  const folder = () => mkdtemp(path.join(tmpdir(), 'docs-changed-'));

  it('writes only the files whose contents changed; a document, or a text of every page, when asked for', async () => {
    const out = await folder();
    const writer = new ChangedFilesWriter(out, '/__dev/live.js');
    const seen: { data: boolean; pointer: boolean }[] = [];
    const site = (b: string, pointer: string): SiteFile[] => [
      { path: 'a.txt', data: 'one' },
      { path: 'b.txt', data: b },
      {
        path: 'guide/index.html',
        document: () => {
          seen.push({ data: existsSync(path.join(out, 'b.txt')), pointer: existsSync(path.join(out, 'version.json')) });
          return Promise.resolve([
            heldText('<html><head></head><body>'),
            heldText('Guide'),
            heldText('</body></html>'),
          ]);
        },
      },
      { path: 'llms-full.txt', data: [heldText('# Guide\n'), heldText(b)] },
      { path: 'version.json', data: pointer },
    ];

    const first = await writer.write(site('two', 'p1'), true);
    expect(first.map((f) => f.path)).toEqual(['a.txt', 'b.txt', 'guide/index.html', 'version.json']);
    expect(seen).toEqual([]);
    expect(existsSync(path.join(out, 'guide/index.html'))).toBe(false);
    expect(existsSync(path.join(out, 'llms-full.txt'))).toBe(false);
    await writer.writeRequested('guide/index.html');
    await writer.writeRequested('llms-full.txt');
    expect(seen).toEqual([{ data: true, pointer: true }]);
    expect(readFileSync(path.join(out, 'guide/index.html'), 'utf8')).toContain(
      '<script src="/__dev/live.js"></script>\n</head>',
    );
    expect(readFileSync(path.join(out, 'llms-full.txt'), 'utf8')).toBe('# Guide\ntwo');
    // Asked for again, unchanged: not made again.
    await writer.writeRequested('guide/index.html');
    expect(seen).toHaveLength(1);

    for (const file of ['a.txt', 'b.txt', 'guide/index.html']) await utimes(path.join(out, file), LONG_AGO, LONG_AGO);
    const second = await writer.write(site('TWO', 'p2'));
    expect(second.map((f) => f.path)).toEqual(['b.txt', 'version.json']);
    expect(readFileSync(path.join(out, 'b.txt'), 'utf8')).toBe('TWO');
    expect(readFileSync(path.join(out, 'version.json'), 'utf8')).toBe('p2');
    expect(statSync(path.join(out, 'a.txt')).mtime).toEqual(LONG_AGO);
    // A document of no page is made again with the whole site only.
    await writer.writeRequested('guide/index.html');
    expect(seen).toHaveLength(1);
    expect(statSync(path.join(out, 'guide/index.html')).mtime).toEqual(LONG_AGO);
    await writer.writeRequested('llms-full.txt');
    expect(readFileSync(path.join(out, 'llms-full.txt'), 'utf8')).toBe('# Guide\nTWO');

    await writer.write(site('TWO', 'p2'), true);
    await writer.writeRequested('guide/index.html');
    expect(seen).toHaveLength(2);
  });

  it('removes the files that left the site, but not the hashed assets an open tab may still load', async () => {
    const out = await folder();
    const writer = new ChangedFilesWriter(out);
    await writer.write([
      { path: 'assets/js/page.old.12345678.html', data: 'fragment' },
      { path: 'old/index.html', data: 'page' },
      { path: 'old.md', data: [heldText('# Old')] },
    ]);
    await writer.writeRequested('old.md');
    expect(existsSync(path.join(out, 'old.md'))).toBe(true);
    expect(await writer.write([])).toEqual([]);
    expect(existsSync(path.join(out, 'old/index.html'))).toBe(false);
    expect(existsSync(path.join(out, 'old.md'))).toBe(false);
    expect(existsSync(path.join(out, 'assets/js/page.old.12345678.html'))).toBe(true);
    // Gone from the site, it is no longer made when asked for.
    await writer.writeRequested('old.md');
    expect(existsSync(path.join(out, 'old.md'))).toBe(false);
  });

  it("keeps a deployment's data files for a minute after the site left it, then removes them; fragments stay", async () => {
    const out = await folder();
    const writer = new ChangedFilesWriter(out);
    const deployment = (hash: string): SiteFile[] => [
      { path: `assets/js/manifest.${hash}.json`, data: `{"hash":"${hash}"}`, reachedLater: true },
      { path: `assets/js/routes.${hash}.json`, data: '{}', reachedLater: true },
      { path: `assets/js/sidebar.${hash}.json`, data: '{}', reachedLater: true },
      { path: `assets/js/page.guide.${hash}.html`, data: 'fragment', reachedLater: true },
      { path: 'version.json', data: hash },
    ];
    const files = (hash: string) => deployment(hash).map((file) => path.join(out, file.path));
    const missing = (hash: string) => files(hash).filter((file) => !existsSync(file));
    const at = async (ms: number, hash: string) => {
      vi.setSystemTime(ms);
      await writer.write(deployment(hash));
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await at(0, 'aaaaaaaa');
      await at(1_000, 'bbbbbbbb');
      await at(30_000, 'cccccccc');
      // A tab still on a deployment the site left less than a minute ago reads all of its data.
      expect([missing('aaaaaaaa'), missing('bbbbbbbb')]).toEqual([[], []]);
      await at(RETIRE_AFTER_MS + 1_000, 'cccccccc');
      const [manifest, routes, sidebar, fragment] = files('aaaaaaaa');
      expect([manifest, routes, sidebar].filter((file) => existsSync(file ?? ''))).toEqual([]);
      expect(existsSync(fragment ?? '')).toBe(true);
      expect(missing('bbbbbbbb')).toEqual([]);
      // A deployment made again (a save undone) keeps the files it names.
      await at(RETIRE_AFTER_MS + 2_000, 'bbbbbbbb');
      await at(3 * RETIRE_AFTER_MS, 'bbbbbbbb');
      expect(missing('bbbbbbbb')).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes again the files of a write that failed', async () => {
    const out = await folder();
    const writer = new ChangedFilesWriter(out);
    const broken: SiteFile = { path: 'a.txt', copyOf: path.join(out, 'missing') };
    await expect(writer.write([{ path: 'b.txt', data: 'b' }, broken])).rejects.toMatchObject({ code: 'ENOENT' });
    const again = await writer.write([
      { path: 'b.txt', data: 'b' },
      { path: 'a.txt', data: 'a' },
    ]);
    expect(again.map((f) => f.path)).toEqual(['b.txt', 'a.txt']);
  });
});
