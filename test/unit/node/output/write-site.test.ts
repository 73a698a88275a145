import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeManifestFolder } from '../../../../src/node/output/write-site';
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
